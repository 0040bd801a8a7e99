DELETE FROM sequences WHERE name IN ('join_code', 'guest', 'guest_entry');
DROP TABLE phone_blocks;
DROP TABLE guest_entries;
DROP TABLE guests;
DROP TABLE join_codes;
ALTER TABLE waitlist_entries DROP COLUMN via;

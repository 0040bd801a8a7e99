ALTER TABLE tablet_pairings DROP COLUMN kiosk_id;
DROP TABLE kiosks;
DELETE FROM sequences WHERE name = 'kiosk';

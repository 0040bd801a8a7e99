DROP TABLE limit_changes;
DELETE FROM sequences WHERE name = 'limit_change';
ALTER TABLE card_tables DROP COLUMN limits_since;
ALTER TABLE card_tables DROP COLUMN buy_in_max;
ALTER TABLE card_tables DROP COLUMN buy_in_min;
ALTER TABLE card_tables DROP COLUMN big_blind;
ALTER TABLE card_tables DROP COLUMN small_blind;

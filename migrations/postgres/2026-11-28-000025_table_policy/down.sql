ALTER TABLE games DROP COLUMN table_policy;

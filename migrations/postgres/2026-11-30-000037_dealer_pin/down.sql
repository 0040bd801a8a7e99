ALTER TABLE staff DROP COLUMN relief_pin_hash;

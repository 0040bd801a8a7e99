ALTER TABLE room DROP COLUMN tap_late_max_s;

-- How late a tablet's tap made offline may still be applied, in seconds (0 to 900): a tap
-- that reaches the server later than this after it was made is refused.
ALTER TABLE room ADD COLUMN tap_late_max_s INTEGER NOT NULL DEFAULT 120;

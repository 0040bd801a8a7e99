ALTER TABLE seatings DROP COLUMN absence_tapped_at;

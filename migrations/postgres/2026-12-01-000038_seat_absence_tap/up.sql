-- When the seat's last away or back was tapped (BSOP 36, 39): a tap made earlier than it,
-- arriving later from a tablet's queue, is superseded and not applied.
ALTER TABLE seatings ADD COLUMN absence_tapped_at TIMESTAMP;

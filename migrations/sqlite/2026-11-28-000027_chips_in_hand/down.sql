ALTER TABLE buyins DROP COLUMN approved_at;
ALTER TABLE buyins DROP COLUMN approved_by;
ALTER TABLE buyins DROP COLUMN arrived_in_hand;

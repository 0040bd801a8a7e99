-- BSOP 28: chips asked for before a hand that reach the seat while it is played count in it
-- only once the floor approves: the hand they arrived in, and who approved them for it.
ALTER TABLE buyins ADD COLUMN arrived_in_hand INTEGER;
ALTER TABLE buyins ADD COLUMN approved_by BIGINT;
ALTER TABLE buyins ADD COLUMN approved_at TIMESTAMP;

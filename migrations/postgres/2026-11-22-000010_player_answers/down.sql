ALTER TABLE seat_calls DROP COLUMN extended_at;
ALTER TABLE seat_calls DROP COLUMN answered_at;
ALTER TABLE seat_calls DROP COLUMN player_answer;

-- BSOP 90: how many boards a hand was run on (1; 2 or 3 when the all-in players agreed to run
-- it more than once). The hand is raked once, on its whole pot, whatever the number.
ALTER TABLE hands ADD COLUMN boards INTEGER NOT NULL DEFAULT 1;

-- BSOP 55, 58: each game runs its extra tables either as must-move tables (the newest table
-- feeds the main games in list order) or balanced (new players go to the table that needs one
-- most). The room's choice per game; games stored before keep the must-move behaviour.
ALTER TABLE games ADD COLUMN table_policy TEXT NOT NULL DEFAULT 'must_move';

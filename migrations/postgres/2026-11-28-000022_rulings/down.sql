DROP TABLE ruling_move_lines;
DROP TABLE ruling_moves;
DROP TABLE held_pots;
DROP TABLE ruling_players;
DROP TABLE rulings;
DROP FUNCTION ruling_rows_not_deleted();
DROP FUNCTION ruling_records_kept();
DROP FUNCTION rulings_final();
DELETE FROM sequences WHERE name IN ('ruling', 'held_pot', 'ruling_move');

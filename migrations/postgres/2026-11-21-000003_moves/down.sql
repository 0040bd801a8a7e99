DROP TABLE must_move_refusals;
DELETE FROM sequences WHERE name = 'must_move_refusal';

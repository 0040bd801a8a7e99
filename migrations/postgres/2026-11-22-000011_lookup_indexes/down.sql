DROP INDEX chip_custody_by_seating;
DROP INDEX seat_change_by_table;
DROP INDEX seat_change_by_player;
DROP INDEX card_tables_by_game;

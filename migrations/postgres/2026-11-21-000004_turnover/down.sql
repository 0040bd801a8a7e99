DROP INDEX seatings_by_game_left;

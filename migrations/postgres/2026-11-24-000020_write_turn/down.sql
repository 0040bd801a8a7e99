DROP FUNCTION cardroom_write_turn();

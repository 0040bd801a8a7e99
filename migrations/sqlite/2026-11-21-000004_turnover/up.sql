-- Seat turnover per game (wait estimates) reads freed seats by game and time.
CREATE INDEX seatings_by_game_left ON seatings (game_id, left_at);

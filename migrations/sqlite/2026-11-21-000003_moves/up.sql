-- Moves between seats and tables: BSOP 55 refusals of a must-move (the player gives up the
-- must-move table, or may re-join the waiting list only after the return window).

INSERT INTO sequences (name, value) VALUES ('must_move_refusal', 0);

CREATE TABLE must_move_refusals (
    id BIGINT PRIMARY KEY NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id),
    -- The must-move table the player refused to leave for the main game.
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    choice TEXT NOT NULL CHECK (choice IN ('give_up', 'rejoin_later')),
    refused_at TIMESTAMP NOT NULL,
    -- rejoin_later: the player may not join this game's list before this time.
    rejoin_after TIMESTAMP,
    created_by BIGINT REFERENCES staff (id)
);
CREATE INDEX must_move_refusals_by_player ON must_move_refusals (player_id, game_id, refused_at);

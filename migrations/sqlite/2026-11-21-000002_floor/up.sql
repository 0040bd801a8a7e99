-- The floor: waiting lists, seatings, seat calls, holds, seat-change requests, recorded draws
-- and the event stream that live pages and tablets follow.

INSERT INTO sequences (name, value) VALUES
    ('waitlist', 0), ('seating', 0), ('seat_call', 0), ('seat_hold', 0), ('seat_change', 0),
    ('draw', 0), ('event', 0);

ALTER TABLE card_tables ADD COLUMN opened_at TIMESTAMP;
ALTER TABLE card_tables ADD COLUMN suspended_at TIMESTAMP;
ALTER TABLE card_tables ADD COLUMN must_move BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE card_tables ADD COLUMN button_seat INTEGER;

-- One row per player per list join. Active entries (waiting, called) are unique per game.
CREATE TABLE waitlist_entries (
    id BIGINT PRIMARY KEY NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    order_key BIGINT NOT NULL,
    joined_at TIMESTAMP NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('desk', 'call_in', 'must_move', 'table_break')),
    call_in_expires_at TIMESTAMP,
    checked_in_at TIMESTAMP,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'called', 'seated', 'removed', 'lapsed')),
    ended_at TIMESTAMP,
    end_reason TEXT,
    created_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX waitlist_active_player ON waitlist_entries (game_id, player_id) WHERE state IN ('waiting', 'called');
CREATE INDEX waitlist_by_game ON waitlist_entries (game_id, state, order_key);
CREATE INDEX waitlist_by_player ON waitlist_entries (player_id, state);

-- One row per sit-down. The partial unique indexes are the last line of defence of
-- BSOP 46 (one seat per player) and of "one player per seat", under any concurrency.
CREATE TABLE seatings (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    seat_no INTEGER NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    game_id BIGINT REFERENCES games (id),
    entry_id BIGINT REFERENCES waitlist_entries (id),
    sat_at TIMESTAMP NOT NULL,
    left_at TIMESTAMP,
    left_reason TEXT,
    seated_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX seatings_seat_taken ON seatings (table_id, seat_no) WHERE left_at IS NULL;
CREATE UNIQUE INDEX seatings_player_seated ON seatings (player_id) WHERE left_at IS NULL;
CREATE INDEX seatings_by_player ON seatings (player_id, sat_at);

CREATE TABLE seat_calls (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    seat_no INTEGER NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    entry_id BIGINT REFERENCES waitlist_entries (id),
    source TEXT NOT NULL CHECK (source IN ('seat_change', 'must_move', 'list')),
    called_at TIMESTAMP NOT NULL,
    respond_by TIMESTAMP NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'acknowledged', 'seated', 'expired', 'declined', 'cancelled')),
    acknowledged_at TIMESTAMP,
    resolved_at TIMESTAMP,
    created_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX seat_calls_open_seat ON seat_calls (table_id, seat_no) WHERE state IN ('pending', 'acknowledged');
CREATE UNIQUE INDEX seat_calls_open_player ON seat_calls (player_id) WHERE state IN ('pending', 'acknowledged');
CREATE INDEX seat_calls_due ON seat_calls (state, respond_by);

-- BSOP 45, 49: a seat held for a player finishing a hand elsewhere, or reserved by the floor.
CREATE TABLE seat_holds (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    seat_no INTEGER NOT NULL,
    player_id BIGINT REFERENCES players (id),
    reason TEXT NOT NULL,
    held_at TIMESTAMP NOT NULL,
    until TIMESTAMP,
    released_at TIMESTAMP,
    created_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX seat_holds_active ON seat_holds (table_id, seat_no) WHERE released_at IS NULL;

-- PT-2007 12, BSOP 51: players at a table who asked to change seat come first.
CREATE TABLE seat_change_requests (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    requested_at TIMESTAMP NOT NULL,
    resolved_at TIMESTAMP,
    state TEXT NOT NULL CHECK (state IN ('open', 'served', 'cancelled'))
);
CREATE UNIQUE INDEX seat_change_open ON seat_change_requests (player_id) WHERE state = 'open';

-- Every draw with its seed, inputs and result, so it can be replayed in a dispute.
CREATE TABLE draws (
    id BIGINT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    seed BIGINT NOT NULL,
    inputs TEXT NOT NULL,
    result TEXT NOT NULL,
    game_id BIGINT REFERENCES games (id),
    table_id BIGINT REFERENCES card_tables (id),
    created_at TIMESTAMP NOT NULL,
    created_by BIGINT REFERENCES staff (id)
);

-- The push stream: written in the same transaction as the change; pages and tablets
-- resume from the last sequence number they saw.
CREATE TABLE events (
    seq BIGINT PRIMARY KEY NOT NULL,
    at TIMESTAMP NOT NULL,
    table_id BIGINT REFERENCES card_tables (id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX events_by_table ON events (table_id, seq);

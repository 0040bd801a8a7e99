-- The table side (issue 4): what the dealer tablet records at each seat. Money in minor
-- units; times in UTC.

INSERT INTO sequences (name, value) VALUES ('buyin', 0);
INSERT INTO sequences (name, value) VALUES ('custody', 0);
INSERT INTO sequences (name, value) VALUES ('service', 0);
INSERT INTO sequences (name, value) VALUES ('hand', 0);

-- A seat's chips and state. stack: the last count (buy-ins, rebuys and counts keep it);
-- bought_in: everything bought in at this seat (BSOP 38 "winning" compares with it);
-- taken_off: the stack counted when the player left (BSOP 26), or put in custody (BSOP 37).
ALTER TABLE seatings ADD COLUMN stack BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seatings ADD COLUMN bought_in BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seatings ADD COLUMN taken_off BIGINT;
-- BSOP 36: away since, and a supervisor's extension.
ALTER TABLE seatings ADD COLUMN away_since TIMESTAMP;
ALTER TABLE seatings ADD COLUMN away_extended_until TIMESTAMP;
ALTER TABLE seatings ADD COLUMN removal_alerted_at TIMESTAMP;
-- BSOP 36, 39; PT-2007 90: missed blinds and the seat's buttons.
ALTER TABLE seatings ADD COLUMN missed_sb INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seatings ADD COLUMN missed_bb INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seatings ADD COLUMN missed_blind_button BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seatings ADD COLUMN absence_button BOOLEAN NOT NULL DEFAULT FALSE;
-- PT-2007 13, 89: hand counters, fed by the dealer's "new hand" tap.
ALTER TABLE seatings ADD COLUMN hands_no_bet INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seatings ADD COLUMN rest_hands INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seatings ADD COLUMN rested_since_bet BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seatings ADD COLUMN resting BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seatings ADD COLUMN no_bet BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seatings ADD COLUMN hand_notice TEXT;

-- Every buy-in, rebuy and stack carried to another table (BSOP 26, 27, 37; PT-2007 28, 79).
CREATE TABLE buyins (
    id BIGINT PRIMARY KEY NOT NULL,
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    game_id BIGINT REFERENCES games (id),
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL,
    stack_before BIGINT NOT NULL,
    rule TEXT,
    at TIMESTAMP NOT NULL,
    recorded_by BIGINT REFERENCES staff (id)
);
CREATE INDEX buyins_by_player ON buyins (player_id, at);
CREATE INDEX buyins_by_seating ON buyins (seating_id);

-- BSOP 36: chips taken off an absent player's seat. Counted by one staff member
-- (state 'counting'), confirmed by a different one with the same amount ('held'); then
-- reclaimed by the player or settled by the cashier. At most one count open per seating.
CREATE TABLE chip_custody (
    id BIGINT PRIMARY KEY NOT NULL,
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    seat_no INTEGER NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    amount BIGINT NOT NULL,
    storage TEXT NOT NULL,
    state TEXT NOT NULL,
    counted_by BIGINT NOT NULL REFERENCES staff (id),
    counted_at TIMESTAMP NOT NULL,
    confirmed_by BIGINT REFERENCES staff (id),
    confirmed_at TIMESTAMP,
    resolved_at TIMESTAMP,
    resolved_by BIGINT REFERENCES staff (id),
    note TEXT
);
CREATE UNIQUE INDEX chip_custody_one_count ON chip_custody (seating_id) WHERE state = 'counting';
CREATE INDEX chip_custody_by_state ON chip_custody (state, player_id);

-- Requests from a table to the floor: call the floor, chips, a decision.
CREATE TABLE service_requests (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    kind TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    created_by BIGINT REFERENCES staff (id),
    handled_at TIMESTAMP,
    handled_by BIGINT REFERENCES staff (id)
);
CREATE INDEX service_requests_open ON service_requests (handled_at, table_id);

-- PT-2007 13, 89 (and the cagnotte sessions): each "new hand" tap.
CREATE TABLE hands (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    number INTEGER NOT NULL,
    button_seat INTEGER,
    at TIMESTAMP NOT NULL,
    recorded_by BIGINT REFERENCES staff (id)
);
CREATE INDEX hands_by_table ON hands (table_id, at);

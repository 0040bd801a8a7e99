-- Cagnotte billing, tips and the room's reports (issue 6; PT-2007 5, 7, 9, 24; PT-ONL 17-18;
-- MO-13 11; BSOP 80). Money in minor units; times in UTC.

INSERT INTO sequences (name, value) VALUES ('suspension', 0);
INSERT INTO sequences (name, value) VALUES ('cagnotte_session', 0);
INSERT INTO sequences (name, value) VALUES ('cagnotte_due', 0);
INSERT INTO sequences (name, value) VALUES ('dealer_shift', 0);
INSERT INTO sequences (name, value) VALUES ('tip', 0);
INSERT INTO sequences (name, value) VALUES ('drop_box', 0);
INSERT INTO sequences (name, value) VALUES ('commission', 0);

-- The game's billing settings (fixed before the game starts, PT-2007 7):
-- cagnotte_base: what the session percentage is taken of: 'table_max' (the maximum buy-in)
-- or 'cave' (what the player brought); rake_cap: the most the house takes from one hand
-- (none: only the percentage); smallest_chip: BSOP 80, every amount the house takes is
-- rounded down to it (none: the largest chip both blinds are made of).
ALTER TABLE games ADD COLUMN cagnotte_base TEXT NOT NULL DEFAULT 'table_max';
ALTER TABLE games ADD COLUMN rake_cap BIGINT;
ALTER TABLE games ADD COLUMN smallest_chip BIGINT;

-- PT-2007 7a, PT-ONL 17a, 18: a hand's pot and rake, recorded at the "hand over" tap that
-- follows it (preflop_no_bet: the hand ended before the flop without a voluntary bet).
-- ended_at: that tap.
ALTER TABLE hands ADD COLUMN ended_at TIMESTAMP;
ALTER TABLE hands ADD COLUMN pot BIGINT;
ALTER TABLE hands ADD COLUMN rake BIGINT;
ALTER TABLE hands ADD COLUMN preflop_no_bet BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE hands ADD COLUMN result_by BIGINT REFERENCES staff (id);
CREATE INDEX hands_by_time ON hands (at);

-- PT-2007 24: every time a table was suspended (suspension is not play, PT-2007 7b).
CREATE TABLE table_suspensions (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    from_at TIMESTAMP NOT NULL,
    to_at TIMESTAMP
);
CREATE INDEX table_suspensions_by_table ON table_suspensions (table_id, from_at);

-- PT-2007 7b: a table's cagnotte sessions. The settings are copied from the game when the
-- session starts, so a report shows what applied. close_reason: hand_over | floor |
-- table_closed.
CREATE TABLE cagnotte_sessions (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT NOT NULL REFERENCES games (id),
    number INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL,
    closed_at TIMESTAMP,
    close_reason TEXT,
    closed_by BIGINT REFERENCES staff (id),
    bp INTEGER NOT NULL,
    base TEXT NOT NULL,
    table_max BIGINT,
    smallest_chip BIGINT NOT NULL,
    length_min INTEGER NOT NULL,
    late_window_min INTEGER NOT NULL
);
CREATE UNIQUE INDEX cagnotte_sessions_one_open ON cagnotte_sessions (table_id) WHERE closed_at IS NULL;
CREATE INDEX cagnotte_sessions_by_table ON cagnotte_sessions (table_id, started_at);
CREATE INDEX cagnotte_sessions_by_time ON cagnotte_sessions (started_at);

-- What each player owes for a session (PT-2007 7b): state due | collected | exempt.
-- collected: what the dealer took (may be less than the amount: the report shows the
-- difference); reason: the floor's reason for an exemption.
CREATE TABLE cagnotte_dues (
    id BIGINT PRIMARY KEY NOT NULL,
    session_id BIGINT NOT NULL REFERENCES cagnotte_sessions (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT NOT NULL REFERENCES games (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    seat_no INTEGER NOT NULL,
    amount BIGINT NOT NULL,
    late BOOLEAN NOT NULL,
    due_at TIMESTAMP NOT NULL,
    state TEXT NOT NULL,
    collected BIGINT,
    settled_at TIMESTAMP,
    settled_by BIGINT REFERENCES staff (id),
    reason TEXT
);
CREATE UNIQUE INDEX cagnotte_dues_once ON cagnotte_dues (session_id, player_id);
CREATE INDEX cagnotte_dues_by_table ON cagnotte_dues (table_id, due_at);
CREATE INDEX cagnotte_dues_by_time ON cagnotte_dues (due_at);

-- A dealer's shift at a table: from the first thing they record there to the moment another
-- dealer takes over, they end it, or the table closes.
CREATE TABLE dealer_shifts (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    dealer_id BIGINT NOT NULL REFERENCES staff (id),
    started_at TIMESTAMP NOT NULL,
    ended_at TIMESTAMP
);
CREATE UNIQUE INDEX dealer_shifts_one_open ON dealer_shifts (table_id) WHERE ended_at IS NULL;
CREATE INDEX dealer_shifts_by_table ON dealer_shifts (table_id, started_at);
CREATE INDEX dealer_shifts_by_time ON dealer_shifts (started_at);

-- PT-2007 5, 9d: tips, apart from the cagnotte, per table and dealer shift.
CREATE TABLE tips (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    shift_id BIGINT REFERENCES dealer_shifts (id),
    dealer_id BIGINT REFERENCES staff (id),
    amount BIGINT NOT NULL,
    at TIMESTAMP NOT NULL,
    recorded_by BIGINT REFERENCES staff (id)
);
CREATE INDEX tips_by_table ON tips (table_id, at);
CREATE INDEX tips_by_time ON tips (at);

-- The quick mode of per-hand rake: the drop box's total for a table at the end of a shift.
CREATE TABLE drop_boxes (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    shift_id BIGINT REFERENCES dealer_shifts (id),
    dealer_id BIGINT REFERENCES staff (id),
    amount BIGINT NOT NULL,
    at TIMESTAMP NOT NULL,
    recorded_by BIGINT REFERENCES staff (id)
);
CREATE INDEX drop_boxes_by_table ON drop_boxes (table_id, at);
CREATE INDEX drop_boxes_by_time ON drop_boxes (at);

-- MO-13 11: the house's 2 % of a winner's payout, per round (the table's hand number).
CREATE TABLE commissions (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    round INTEGER NOT NULL,
    player_id BIGINT REFERENCES players (id),
    payout BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    at TIMESTAMP NOT NULL,
    recorded_by BIGINT REFERENCES staff (id)
);
CREATE INDEX commissions_by_table ON commissions (table_id, at);
CREATE INDEX commissions_by_time ON commissions (at);

-- Reports read seatings, list entries and calls by time.
CREATE INDEX seatings_by_time ON seatings (sat_at);
CREATE INDEX waitlist_entries_by_time ON waitlist_entries (joined_at);
CREATE INDEX seat_calls_by_time ON seat_calls (called_at);

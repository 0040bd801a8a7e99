-- The floor's rulings and the incident log (BSOP 16-22): who asked, at which table, about
-- which hand and seats, whether it was asked in time (BSOP 19), what the supervision decided
-- and on which rule, the pot held aside meanwhile (BSOP 21), and the chips a decision moves
-- (BSOP 20, 21), recorded by one staff member and confirmed by another. Times in UTC, money in
-- minor units.

INSERT INTO sequences (name, value) VALUES ('ruling', 0);
INSERT INTO sequences (name, value) VALUES ('held_pot', 0);
INSERT INTO sequences (name, value) VALUES ('ruling_move', 0);

-- One ruling. Open while `decided_at` is NULL. `hand_id`/`hand_number`: the table's hand in
-- play when it was asked, or the earlier hand named (NULL: no hand dealt yet). `seats`: the
-- seats named, "3,7". `late_reason` (BSOP 19): NULL when asked in time, else next_hand |
-- table_broken | player_moved | player_left. `result_stands`: NULL for a ruling asked in
-- time; for a late one, TRUE unless the floor overrode it with `override_reason`. `corrects`:
-- the decided ruling this one corrects (BSOP 17: a decision is final; it is never changed,
-- only followed by a later ruling that names it).
CREATE TABLE rulings (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    hand_id BIGINT REFERENCES hands (id),
    hand_number INTEGER,
    seats TEXT NOT NULL,
    note TEXT NOT NULL,
    asked_at TIMESTAMP NOT NULL,
    asked_by BIGINT REFERENCES staff (id),
    late_reason TEXT,
    corrects BIGINT REFERENCES rulings (id),
    decision TEXT,
    rule_cited TEXT,
    result_stands BOOLEAN,
    override_reason TEXT,
    decided_at TIMESTAMP,
    decided_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX rulings_one_correction ON rulings (corrects) WHERE corrects IS NOT NULL;
CREATE INDEX rulings_by_time ON rulings (asked_at);
CREATE INDEX rulings_by_table ON rulings (table_id, asked_at);
CREATE INDEX rulings_open ON rulings (table_id) WHERE decided_at IS NULL;

-- The players a ruling involves: those at the seats named when it was asked (`named_at` =
-- 'asked', with their seat) and those the floor adds with the decision ('decided'). BSOP 22
-- reads a player's earlier rulings from here.
CREATE TABLE ruling_players (
    ruling_id BIGINT NOT NULL REFERENCES rulings (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    seat_no INTEGER,
    named_at TEXT NOT NULL,
    PRIMARY KEY (ruling_id, player_id)
);
CREATE INDEX ruling_players_by_player ON ruling_players (player_id, ruling_id);

-- BSOP 21: a pot, or part of it, taken off the table while the decision is pending: how much,
-- from which seats, where it is kept; released by the decision (at most one per ruling).
CREATE TABLE held_pots (
    id BIGINT PRIMARY KEY NOT NULL,
    ruling_id BIGINT NOT NULL REFERENCES rulings (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    amount BIGINT NOT NULL,
    seats TEXT NOT NULL,
    storage TEXT NOT NULL,
    state TEXT NOT NULL,
    held_at TIMESTAMP NOT NULL,
    held_by BIGINT REFERENCES staff (id),
    released_at TIMESTAMP,
    released_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX held_pots_one_per_ruling ON held_pots (ruling_id);
CREATE INDEX held_pots_by_state ON held_pots (state);

-- The chips a decision moves (the held pot's release, BSOP 21; a pot reconstructed, BSOP 20):
-- recorded with the decision by the supervisor ('recorded'), confirmed by a second, different
-- staff member ('confirmed': the stacks on record change then) or refused by them
-- ('cancelled'). One per ruling.
CREATE TABLE ruling_moves (
    id BIGINT PRIMARY KEY NOT NULL,
    ruling_id BIGINT NOT NULL REFERENCES rulings (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    held_pot_id BIGINT REFERENCES held_pots (id),
    state TEXT NOT NULL,
    recorded_by BIGINT NOT NULL REFERENCES staff (id),
    recorded_at TIMESTAMP NOT NULL,
    confirmed_by BIGINT REFERENCES staff (id),
    confirmed_at TIMESTAMP,
    cancelled_by BIGINT REFERENCES staff (id),
    cancelled_at TIMESTAMP
);
CREATE UNIQUE INDEX ruling_moves_one_per_ruling ON ruling_moves (ruling_id);
CREATE INDEX ruling_moves_by_state ON ruling_moves (state);

-- Each line of a move: `kind` release (from the held pot: no `from_player_id`) or
-- reconstruction (from a player's stack to another's).
CREATE TABLE ruling_move_lines (
    move_id BIGINT NOT NULL REFERENCES ruling_moves (id),
    line_no INTEGER NOT NULL,
    kind TEXT NOT NULL,
    from_player_id BIGINT REFERENCES players (id),
    to_player_id BIGINT NOT NULL REFERENCES players (id),
    amount BIGINT NOT NULL,
    PRIMARY KEY (move_id, line_no)
);

-- BSOP 17: a decided ruling is final, and no ruling is ever deleted (a regulator asks for
-- the log after a dispute); the database refuses it whatever the application does.
CREATE TRIGGER rulings_final BEFORE UPDATE ON rulings WHEN OLD.decided_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'BSOP 17: a decided ruling is final'); END;
CREATE TRIGGER rulings_kept BEFORE DELETE ON rulings
BEGIN SELECT RAISE(ABORT, 'rulings are never deleted'); END;
CREATE TRIGGER ruling_players_kept BEFORE DELETE ON ruling_players
BEGIN SELECT RAISE(ABORT, 'rulings are never deleted'); END;
CREATE TRIGGER ruling_players_final BEFORE UPDATE ON ruling_players
BEGIN SELECT RAISE(ABORT, 'the players of a ruling are never changed'); END;
CREATE TRIGGER held_pots_kept BEFORE DELETE ON held_pots
BEGIN SELECT RAISE(ABORT, 'held pots are never deleted'); END;
CREATE TRIGGER ruling_moves_kept BEFORE DELETE ON ruling_moves
BEGIN SELECT RAISE(ABORT, 'the chips a ruling moves are never deleted'); END;
CREATE TRIGGER ruling_move_lines_kept BEFORE DELETE ON ruling_move_lines
BEGIN SELECT RAISE(ABORT, 'the chips a ruling moves are never deleted'); END;
CREATE TRIGGER ruling_move_lines_final BEFORE UPDATE ON ruling_move_lines
BEGIN SELECT RAISE(ABORT, 'the chips a ruling moves are never changed'); END;

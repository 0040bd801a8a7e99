-- BSOP 115, 116: the special buttons Cucurucho and Macaca.

INSERT INTO sequences (name, value) VALUES ('special_button', 0);
INSERT INTO sequences (name, value) VALUES ('special_hand', 0);
INSERT INTO sequences (name, value) VALUES ('special_contribution', 0);

-- The game's settings (off by default). *_bb: each player's fixed contribution in big blinds
-- (3 to 5, BSOP 115 "média de 3x a 5x o blind", BSOP 116 "entre 3x a 5x o valor do big
-- blind"); macaca_cap_bb: the most the Macaca puts all in on one hand, in big blinds (BSOP
-- 116 "em média 20 blinds"), the rest of her chips waiting for her next hand.
ALTER TABLE games ADD COLUMN cucurucho BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN cucurucho_bb INTEGER NOT NULL DEFAULT 3;
ALTER TABLE games ADD COLUMN macaca BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN macaca_bb INTEGER NOT NULL DEFAULT 3;
ALTER TABLE games ADD COLUMN macaca_cap_bb INTEGER NOT NULL DEFAULT 20;

-- Where a table's special button is: one row per draw of its starting seat (the newest, not
-- ended, is the button in play; a redraw ends the one before it, with the redraw's reason on
-- the new row). pending: the dealer button reached it while another special hand was being
-- played, so its hand is the next one. bank: the Macaca's chips kept for her next hand.
CREATE TABLE special_buttons (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    kind TEXT NOT NULL,
    seat_no INTEGER NOT NULL,
    draw_id BIGINT NOT NULL REFERENCES draws (id),
    drawn_at TIMESTAMP NOT NULL,
    drawn_by BIGINT REFERENCES staff (id),
    reason TEXT,
    pending BOOLEAN NOT NULL DEFAULT FALSE,
    bank BIGINT NOT NULL DEFAULT 0,
    ended_at TIMESTAMP
);
CREATE UNIQUE INDEX special_buttons_in_play ON special_buttons (table_id, kind) WHERE ended_at IS NULL;

-- A hand played as a special game (at most one per hand): the contribution that applied, and
-- for the Macaca the chips she brought (bank_before), her all-in cap, and the result the
-- dealer recorded (outcome won | lost, what she collected, what she put at stake and what she
-- keeps for her next hand).
CREATE TABLE special_hands (
    id BIGINT PRIMARY KEY NOT NULL,
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    kind TEXT NOT NULL,
    button_id BIGINT NOT NULL REFERENCES special_buttons (id),
    button_seat INTEGER NOT NULL,
    dealer_seat INTEGER,
    contribution_bb INTEGER NOT NULL,
    big_blind BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    bank_before BIGINT NOT NULL DEFAULT 0,
    cap BIGINT,
    outcome TEXT,
    collected BIGINT,
    stake BIGINT,
    bank_after BIGINT,
    result_at TIMESTAMP,
    result_by BIGINT REFERENCES staff (id),
    at TIMESTAMP NOT NULL,
    recorded_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX special_hands_one_per_hand ON special_hands (hand_id);
CREATE INDEX special_hands_by_table ON special_hands (table_id, at);
CREATE INDEX special_hands_by_time ON special_hands (at);

-- Each seated player's fixed contribution to a special hand; took_part false: the dealer
-- marked the seat as not in it (away players start so).
CREATE TABLE special_contributions (
    id BIGINT PRIMARY KEY NOT NULL,
    special_hand_id BIGINT NOT NULL REFERENCES special_hands (id),
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    seating_id BIGINT NOT NULL REFERENCES seatings (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    seat_no INTEGER NOT NULL,
    amount BIGINT NOT NULL,
    took_part BOOLEAN NOT NULL,
    marked_at TIMESTAMP,
    marked_by BIGINT REFERENCES staff (id)
);
CREATE UNIQUE INDEX special_contributions_once ON special_contributions (special_hand_id, seat_no);

-- Issue 18 §4: seat preferences. A player's preferred seats, tables to avoid, an accessibility
-- need (BSOP 45) and whether they keep their place and wait for a matching seat.
CREATE TABLE seat_preferences (
    player_id BIGINT PRIMARY KEY NOT NULL REFERENCES players(id),
    seats TEXT NOT NULL DEFAULT '',
    avoid_tables TEXT NOT NULL DEFAULT '',
    accessible BOOLEAN NOT NULL DEFAULT 0,
    wait_for_match BOOLEAN NOT NULL DEFAULT 0,
    updated_at TIMESTAMP NOT NULL,
    updated_by BIGINT REFERENCES staff(id)
);
-- BSOP 45: the seats of a table the room keeps for accessibility needs ("1, 10").
CREATE TABLE accessible_seats (
    table_id BIGINT PRIMARY KEY NOT NULL REFERENCES card_tables(id),
    seats TEXT NOT NULL DEFAULT ''
);
-- How many offers have gone by a waiting entry whose player waits for a preferred seat
-- (bounded by the profile's pref_max_passes).
CREATE TABLE pref_passes (
    entry_id BIGINT PRIMARY KEY NOT NULL REFERENCES waitlist_entries(id),
    passes INTEGER NOT NULL DEFAULT 0,
    last_at TIMESTAMP NOT NULL
);

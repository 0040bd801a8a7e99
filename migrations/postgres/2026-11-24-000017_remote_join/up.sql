-- Issue 18 §1, §2, §5: players join the waiting lists from their phone (and, later, a desk
-- kiosk), with a one-time code sent to their phone; guests who are not registered yet keep a
-- place until they register at the desk (BSOP 1, 3); the floor can block a phone number.

-- Where a remote entry came from (the entry's `source` stays `call_in` for a phone join: it
-- follows the call-in rules, lapsing unless checked in — BSOP 43). NULL: the desk's entries.
ALTER TABLE waitlist_entries ADD COLUMN via TEXT CHECK (via IN ('phone', 'kiosk'));

-- One request for a code: only the code's HMAC (keyed with the room's secret) is kept; the
-- request is named in its address by a random token, also kept hashed.
CREATE TABLE join_codes (
    id BIGINT PRIMARY KEY NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
    code_hash TEXT NOT NULL,
    -- The lists asked for (JSON array of game ids) and a guest's name as typed.
    game_ids TEXT NOT NULL,
    guest_name TEXT NOT NULL,
    language TEXT NOT NULL CHECK (language IN ('pt', 'en')),
    via TEXT NOT NULL CHECK (via IN ('phone', 'kiosk')),
    address TEXT NOT NULL,
    -- False: the code was not sent (a blocked phone) although the answer was the same.
    sent BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    used_at TIMESTAMP,
    -- joined | guest | refused | too_many
    outcome TEXT,
    entries INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX join_codes_by_phone ON join_codes (phone, created_at);
CREATE INDEX join_codes_by_address ON join_codes (address, created_at);
CREATE INDEX join_codes_by_time ON join_codes (created_at);

-- Someone not registered yet who joined from their phone: a name and a verified phone.
CREATE TABLE guests (
    id BIGINT PRIMARY KEY NOT NULL,
    full_name TEXT NOT NULL,
    phone TEXT NOT NULL,
    language TEXT NOT NULL CHECK (language IN ('pt', 'en')),
    created_at TIMESTAMP NOT NULL,
    -- Set when the desk registered them (BSOP 1, 3): their entries became the player's.
    player_id BIGINT REFERENCES players (id),
    registered_at TIMESTAMP
);
CREATE INDEX guests_by_phone ON guests (phone);

-- A guest's place on a list: its key is in the same order as the list's entries, so the
-- place is kept while the guest registers; it becomes a list entry then.
CREATE TABLE guest_entries (
    id BIGINT PRIMARY KEY NOT NULL,
    guest_id BIGINT NOT NULL REFERENCES guests (id),
    game_id BIGINT NOT NULL REFERENCES games (id),
    order_key BIGINT NOT NULL,
    joined_at TIMESTAMP NOT NULL,
    via TEXT NOT NULL CHECK (via IN ('phone', 'kiosk')),
    -- BSOP 43: lapses unless the guest registers at the desk by then (call_in_expiry_min).
    expires_at TIMESTAMP NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('waiting', 'registered', 'removed')),
    ended_at TIMESTAMP,
    entry_id BIGINT REFERENCES waitlist_entries (id)
);
CREATE UNIQUE INDEX guest_entries_active ON guest_entries (game_id, guest_id) WHERE state = 'waiting';
CREATE INDEX guest_entries_by_guest ON guest_entries (guest_id, state);

-- Phone numbers the floor blocked from asking for codes (issue 18 §5).
CREATE TABLE phone_blocks (
    phone TEXT PRIMARY KEY NOT NULL,
    reason TEXT NOT NULL,
    blocked_at TIMESTAMP NOT NULL,
    blocked_by BIGINT REFERENCES staff (id)
);

INSERT INTO sequences (name, value) VALUES ('join_code', 0), ('guest', 0), ('guest_entry', 0);

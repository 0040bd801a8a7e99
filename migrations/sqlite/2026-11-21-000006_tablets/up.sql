-- Dealer tablets (issue 4): a tablet is paired with one table by a floor manager or admin.
-- The tablet shows a short code; the floor enters it with the table; the tablet then holds
-- a signed device token (its id and token version). Revoking a tablet (or pairing it again)
-- ends that token at once.

INSERT INTO sequences (name, value) VALUES ('tablet', 0);

CREATE TABLE tablets (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    label TEXT NOT NULL,
    token_version INTEGER NOT NULL DEFAULT 1,
    paired_at TIMESTAMP NOT NULL,
    paired_by BIGINT REFERENCES staff (id),
    revoked_at TIMESTAMP,
    revoked_by BIGINT REFERENCES staff (id),
    last_seen_at TIMESTAMP
);
CREATE INDEX tablets_by_table ON tablets (table_id);

-- A code shown on an unpaired tablet. Only the browser that asked for it (it holds the
-- secret, kept here as a SHA-256 hash) can collect the device token once the floor has
-- entered the code.
CREATE TABLE tablet_pairings (
    code TEXT PRIMARY KEY NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    tablet_id BIGINT REFERENCES tablets (id),
    collected_at TIMESTAMP
);

-- A seat call the dealer has not acknowledged in time is escalated on the floor dashboard
-- (profile seat_call_ack_escalation_min); the scheduler marks it once.
ALTER TABLE seat_calls ADD COLUMN escalated_at TIMESTAMP;

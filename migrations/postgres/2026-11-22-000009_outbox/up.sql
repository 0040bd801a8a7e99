-- Issue 5: the durable outbox of player messages (SMS, e-mail). A message is written here in
-- the same transaction as the action that causes it; the delivery worker claims it (status
-- `sending` with a lease), sends it with its idempotency key, and records every attempt.
INSERT INTO sequences (name, value) VALUES ('outbox', 0), ('outbox_attempt', 0);

CREATE TABLE outbox (
    id BIGINT PRIMARY KEY NOT NULL,
    player_id BIGINT REFERENCES players (id),
    -- added | next | nearly_next | seat_ready | call_expired | removed | must_move | custody
    kind TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
    recipient TEXT NOT NULL,
    language TEXT NOT NULL CHECK (language IN ('pt', 'en')),
    -- What the message says, as computed in the action's transaction (JSON).
    params TEXT NOT NULL,
    -- The text as sent (filled in at the first attempt; every retry sends the same).
    subject TEXT,
    body TEXT,
    -- Sent to the provider with every attempt (SMTP Message-ID, SMS idempotency token).
    idem_key TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_until TIMESTAMP,
    claimed_by TEXT,
    last_error TEXT,
    provider_ref TEXT,
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    failed_at TIMESTAMP
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_by_player ON outbox (player_id, id);

-- Every delivery attempt: `started` when claimed; `sent` / `error` when recorded;
-- `interrupted` when its worker never recorded it (crash) and the lease ran out.
CREATE TABLE outbox_attempts (
    id BIGINT PRIMARY KEY NOT NULL,
    message_id BIGINT NOT NULL REFERENCES outbox (id),
    attempt INTEGER NOT NULL,
    worker TEXT NOT NULL,
    transport TEXT NOT NULL,
    started_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    outcome TEXT NOT NULL CHECK (outcome IN ('started', 'sent', 'error', 'interrupted')),
    error TEXT,
    provider_ref TEXT
);
CREATE INDEX outbox_attempts_by_message ON outbox_attempts (message_id, attempt);

-- "You are next" / "nearly next" go out once per list entry: the entries already told.
CREATE TABLE notify_marks (
    entry_id BIGINT NOT NULL REFERENCES waitlist_entries (id),
    kind TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    PRIMARY KEY (entry_id, kind)
);

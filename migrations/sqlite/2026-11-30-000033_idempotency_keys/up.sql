-- The answers to state-changing requests sent with an idempotency key: a request repeated
-- with the same key (a form sent again, an API call retried) is answered from here instead
-- of applied twice. The row is written in the same transaction as the request's effect; its
-- answer (status, headers, body) right after. Kept 24 hours.
CREATE TABLE idempotency_keys (
    -- Who asked: the staff member, the paired tablet or kiosk, the player's link, or the
    -- browser's pre-sign-in cookie (hashed where it is a secret).
    scope TEXT NOT NULL,
    -- The operation (method and address) and the key the client sent with it.
    idem_key TEXT NOT NULL,
    -- SHA-256 of the method, the path and the body (for a form, its fields).
    request_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    -- The answer, once stored (none: being answered, or its answer was lost).
    status INTEGER,
    content_type TEXT,
    location TEXT,
    -- The answer's Set-Cookie headers, one a line.
    set_cookie TEXT,
    body BLOB,
    -- The answer was too large to keep: a repeat is told it was applied.
    body_dropped BOOLEAN NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

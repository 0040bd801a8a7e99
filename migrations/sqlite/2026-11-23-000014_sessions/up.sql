-- Issue 16: sessions that really end, and sign-in throttling that cannot lock staff out.

-- One row per sign-in (a page session or an API token). The signed token names its row;
-- a token whose row is ended (signed out, ended by the person or an admin, password changed,
-- deactivated) is refused at once, whatever its expiry says.
CREATE TABLE staff_sessions (
    id TEXT PRIMARY KEY NOT NULL,
    staff_id BIGINT NOT NULL REFERENCES staff (id),
    kind TEXT NOT NULL CHECK (kind IN ('web', 'api')),
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    user_agent TEXT NOT NULL,
    address TEXT NOT NULL,
    ended_at TIMESTAMP,
    end_reason TEXT
);
CREATE INDEX staff_sessions_open ON staff_sessions (staff_id, ended_at);

-- Failures counted per key (username from one address, one address, one username), with a
-- growing wait instead of a hard lock (domain::login_throttle). The old per-username counts
-- are dropped: they only ever held a few minutes of state.
DROP TABLE login_throttle;
CREATE TABLE login_throttle (
    throttle_key TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    last_failure TIMESTAMP NOT NULL,
    not_before TIMESTAMP
);

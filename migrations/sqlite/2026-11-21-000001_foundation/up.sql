-- Foundation: settings, id sequences, room, staff, players, exclusions, separations, games,
-- tables, the hash-chained audit trail.

CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

-- Row-locked counters: ids and the audit sequence are taken inside the writing transaction.
CREATE TABLE sequences (
    name TEXT PRIMARY KEY NOT NULL,
    value BIGINT NOT NULL
);
INSERT INTO sequences (name, value) VALUES
    ('audit', 0), ('staff', 0), ('player', 0), ('exclusion', 0), ('separation', 0),
    ('game', 0), ('table', 0);

CREATE TABLE room (
    id BIGINT PRIMARY KEY NOT NULL CHECK (id = 1),
    name TEXT NOT NULL,
    timezone TEXT NOT NULL,
    currency TEXT NOT NULL,
    default_language TEXT NOT NULL,
    profile TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE staff (
    id BIGINT PRIMARY KEY NOT NULL,
    username TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'floor', 'dealer', 'cashier')),
    password_hash TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT 1,
    language TEXT,
    token_version INTEGER NOT NULL DEFAULT 0,
    must_change_password BOOLEAN NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE login_throttle (
    username TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    window_start TIMESTAMP NOT NULL,
    locked_until TIMESTAMP
);

CREATE TABLE players (
    id BIGINT PRIMARY KEY NOT NULL,
    full_name TEXT NOT NULL,
    alias TEXT NOT NULL,
    date_of_birth DATE NOT NULL,
    doc_kind TEXT NOT NULL CHECK (doc_kind IN ('passport', 'driving_licence', 'national_id', 'military_id')),
    doc_number TEXT NOT NULL,
    doc_number_norm TEXT NOT NULL,
    doc_country TEXT NOT NULL,
    doc_expiry DATE NOT NULL,
    phone TEXT,
    email TEXT,
    language TEXT NOT NULL CHECK (language IN ('pt', 'en')),
    notify TEXT NOT NULL CHECK (notify IN ('sms', 'email', 'both', 'none')),
    has_photo BOOLEAN NOT NULL DEFAULT 0,
    search_key TEXT NOT NULL,
    link_token_version INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (doc_kind, doc_country, doc_number_norm)
);
CREATE INDEX players_phone ON players (phone);

CREATE TABLE player_photos (
    player_id BIGINT PRIMARY KEY NOT NULL REFERENCES players (id),
    content_type TEXT NOT NULL,
    data BLOB NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE exclusions (
    id BIGINT PRIMARY KEY NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    reason TEXT NOT NULL,
    starts_at TIMESTAMP NOT NULL,
    ends_at TIMESTAMP,
    created_by BIGINT REFERENCES staff (id),
    created_at TIMESTAMP NOT NULL,
    lifted_at TIMESTAMP,
    lifted_by BIGINT REFERENCES staff (id),
    lift_reason TEXT,
    CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX exclusions_player ON exclusions (player_id);

CREATE TABLE separations (
    id BIGINT PRIMARY KEY NOT NULL,
    player_a BIGINT NOT NULL REFERENCES players (id),
    player_b BIGINT NOT NULL REFERENCES players (id),
    reason TEXT NOT NULL,
    created_by BIGINT REFERENCES staff (id),
    created_at TIMESTAMP NOT NULL,
    removed_at TIMESTAMP,
    removed_by BIGINT REFERENCES staff (id),
    CHECK (player_a < player_b)
);
CREATE UNIQUE INDEX separations_active_pair ON separations (player_a, player_b) WHERE removed_at IS NULL;
CREATE INDEX separations_b ON separations (player_b);

CREATE TABLE games (
    id BIGINT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    small_blind BIGINT NOT NULL,
    big_blind BIGINT NOT NULL,
    limit_class TEXT NOT NULL CHECK (limit_class IN ('low', 'mid', 'high')),
    buy_in_min BIGINT NOT NULL,
    buy_in_max BIGINT,
    seats INTEGER NOT NULL,
    cagnotte_mode TEXT NOT NULL CHECK (cagnotte_mode IN ('per_hand', 'per_session')),
    cagnotte_bp INTEGER NOT NULL,
    active BOOLEAN NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE card_tables (
    id BIGINT PRIMARY KEY NOT NULL,
    number INTEGER NOT NULL UNIQUE,
    seats INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 11),
    game_id BIGINT REFERENCES games (id),
    mode TEXT NOT NULL CHECK (mode IN ('continuous', 'session')),
    state TEXT NOT NULL DEFAULT 'closed',
    active BOOLEAN NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE audit_log (
    seq BIGINT PRIMARY KEY NOT NULL,
    at TIMESTAMP NOT NULL,
    actor_id BIGINT,
    actor_name TEXT NOT NULL,
    action TEXT NOT NULL,
    subject_kind TEXT NOT NULL,
    subject_id BIGINT,
    before_json TEXT NOT NULL,
    after_json TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX audit_subject ON audit_log (subject_kind, subject_id);
CREATE INDEX audit_at ON audit_log (at);

-- Append-only: nothing updates or deletes an audit record.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

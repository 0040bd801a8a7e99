-- Issue 18 §3: a desk kiosk. A tablet shows its pairing code as a dealer tablet does; the floor
-- pairs it either with a table (a dealer tablet) or as a desk kiosk (walk-ins join the lists on
-- it). A kiosk holds its own signed device token (kiosk id + token version), usable neither as
-- a dealer tablet nor as staff; revoking it (the version moves on) ends that token at once.

INSERT INTO sequences (name, value) VALUES ('kiosk', 0);

CREATE TABLE kiosks (
    id BIGINT PRIMARY KEY NOT NULL,
    label TEXT NOT NULL,
    token_version INTEGER NOT NULL DEFAULT 1,
    paired_at TIMESTAMP NOT NULL,
    paired_by BIGINT REFERENCES staff (id),
    revoked_at TIMESTAMP,
    revoked_by BIGINT REFERENCES staff (id),
    last_seen_at TIMESTAMP
);

-- A pairing code is used up by a tablet (tablet_id) or by a kiosk (kiosk_id), never both.
-- (PostgreSQL keeps the foreign key; SQLite cannot drop a column named in one.)
ALTER TABLE tablet_pairings ADD COLUMN kiosk_id BIGINT REFERENCES kiosks (id);

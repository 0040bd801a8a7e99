-- The database's identity: a random id made with the database (kept by a copy or a restore:
-- the same trail). The audit trail's signed checkpoints name it, so that a checkpoint file
-- never vouches for another database's records.
CREATE TABLE database_identity (
    one INTEGER PRIMARY KEY NOT NULL CHECK (one = 1),
    id TEXT NOT NULL CHECK (length(id) = 32),
    created_at TIMESTAMP NOT NULL
);
INSERT INTO database_identity (one, id, created_at)
VALUES (1, lower(hex(randomblob(16))), strftime('%Y-%m-%d %H:%M:%f', 'now'));

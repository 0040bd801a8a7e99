-- What every write transaction starts with, in one round trip (issue 14: on PostgreSQL each
-- statement is one): the room's write turn — the advisory lock every server process takes,
-- `db::postgres::TURN_LOCK` — and then every sequence counter with the audit trail's last
-- record, for the write's tail (`db::tail`). The read runs after the lock is granted: a
-- VOLATILE function takes a new snapshot for each query it runs, so it sees every write
-- committed before this turn (a plain `SELECT lock, …` would read with the snapshot taken
-- before it waited).
CREATE FUNCTION cardroom_write_turn()
RETURNS TABLE (name TEXT, value BIGINT, last_seq BIGINT, last_hash TEXT)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    PERFORM pg_advisory_xact_lock(72010001);
    RETURN QUERY
        SELECT s.name, s.value, h.seq, h.hash
        FROM sequences s
        LEFT JOIN LATERAL (SELECT a.seq, a.hash FROM audit_log a WHERE s.name = 'audit'
                           ORDER BY a.seq DESC LIMIT 1) h ON true;
END;
$$;

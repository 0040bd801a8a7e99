-- Issue 14: the push hubs of every server process are woken by a trigger instead of a
-- `NOTIFY` statement after each event: no write pays a round trip for it. As before, the
-- notification is delivered at commit (never for a rollback) and PostgreSQL merges the
-- identical notifications of one transaction, so a batch of writes sends one.
CREATE FUNCTION cardroom_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cardroom_events', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION cardroom_events_notify();

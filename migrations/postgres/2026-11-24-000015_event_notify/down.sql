DROP TRIGGER events_notify ON events;
DROP FUNCTION cardroom_events_notify();

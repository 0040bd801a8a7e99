DROP TABLE notify_marks;
DROP TABLE outbox_attempts;
DROP TABLE outbox;
DELETE FROM sequences WHERE name IN ('outbox', 'outbox_attempt');

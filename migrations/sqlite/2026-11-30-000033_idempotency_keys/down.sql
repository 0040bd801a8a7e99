DROP INDEX idempotency_keys_created;
DROP TABLE idempotency_keys;

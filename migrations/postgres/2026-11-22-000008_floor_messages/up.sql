-- Issue 4: free-text messages from the floor to a table's tablet, shown until the dealer
-- marks them seen (the floor sees who saw it and when).
INSERT INTO sequences (name, value) VALUES ('floor_message', 0);

CREATE TABLE floor_messages (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    created_by BIGINT REFERENCES staff (id),
    seen_at TIMESTAMP,
    seen_by BIGINT REFERENCES staff (id)
);
CREATE INDEX floor_messages_by_table ON floor_messages (table_id, seen_at);

-- The dealers' night: who is clocked in, and their breaks. A dealer is at any moment dealing
-- at one table (an open dealer shift), on a break (an open break), available (clocked in,
-- neither) or off (not clocked in).
CREATE TABLE dealer_roster (
    id BIGINT PRIMARY KEY NOT NULL,
    dealer_id BIGINT NOT NULL REFERENCES staff (id),
    clocked_in_at TIMESTAMP NOT NULL,
    clocked_out_at TIMESTAMP
);
CREATE UNIQUE INDEX dealer_roster_one_open ON dealer_roster (dealer_id) WHERE clocked_out_at IS NULL;
CREATE INDEX dealer_roster_by_time ON dealer_roster (clocked_in_at);

CREATE TABLE dealer_breaks (
    id BIGINT PRIMARY KEY NOT NULL,
    dealer_id BIGINT NOT NULL REFERENCES staff (id),
    started_at TIMESTAMP NOT NULL,
    ended_at TIMESTAMP
);
CREATE UNIQUE INDEX dealer_breaks_one_open ON dealer_breaks (dealer_id) WHERE ended_at IS NULL;
CREATE INDEX dealer_breaks_by_time ON dealer_breaks (started_at);

INSERT INTO sequences (name, value) VALUES ('dealer_roster', 0), ('dealer_break', 0);

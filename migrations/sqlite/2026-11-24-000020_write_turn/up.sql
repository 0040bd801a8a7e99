-- PostgreSQL only (a function taking the write turn and reading the counters in one round
-- trip); SQLite takes its write turn in the process. Kept so both backends number their
-- migrations alike.
SELECT 1;

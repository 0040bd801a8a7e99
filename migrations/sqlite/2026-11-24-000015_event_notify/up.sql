-- PostgreSQL only (a trigger that wakes the other server processes' push hubs); one SQLite
-- server is one process, woken locally. Kept so both backends number their migrations alike.
SELECT 1;

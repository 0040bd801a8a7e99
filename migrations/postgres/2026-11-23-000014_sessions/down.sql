DROP TABLE login_throttle;
CREATE TABLE login_throttle (
    username TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    window_start TIMESTAMP NOT NULL,
    locked_until TIMESTAMP
);
DROP INDEX staff_sessions_open;
DROP TABLE staff_sessions;

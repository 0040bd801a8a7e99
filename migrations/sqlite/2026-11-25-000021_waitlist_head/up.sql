-- Issue 14: a call reads the head of its game's list inside the room's write turn (the
-- waiting entries in list order, a page at a time: services::floor::waiting_page). With only
-- (game_id, state, order_key) the entries of one order key still had to be sorted by join
-- time and id on every call (PostgreSQL: an incremental sort of at least 32 rows, ~0.1 ms of
-- the writer's turn; SQLite: a temporary b-tree). In list order, only the waiting ones.
CREATE INDEX waitlist_head ON waitlist_entries (game_id, order_key, joined_at, id) WHERE state = 'waiting';

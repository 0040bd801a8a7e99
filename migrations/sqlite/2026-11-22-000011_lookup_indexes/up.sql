-- Plain indexes for lookups that partial indexes used to serve. SQLite now plans without
-- looking at bound values (query-planner stability guarantee, see db::stable_plans_on_open),
-- so a partial index whose condition compares a column with a value ("state = 'open'") can
-- no longer serve a query that binds that value; and tables of a game were found by a scan.
CREATE INDEX card_tables_by_game ON card_tables (game_id);
CREATE INDEX seat_change_by_player ON seat_change_requests (player_id, state);
CREATE INDEX seat_change_by_table ON seat_change_requests (table_id, state);
CREATE INDEX chip_custody_by_seating ON chip_custody (seating_id);

-- PT-2007 22, BSOP 34: a table in play keeps its own limits (blinds and buy-ins), set from its
-- game when it opens and changed only by an approved, announced change (`limit_changes`).
-- `limits_since` is NULL while the table is not in play: it then plays its game's limits.
ALTER TABLE card_tables ADD COLUMN small_blind BIGINT;
ALTER TABLE card_tables ADD COLUMN big_blind BIGINT;
ALTER TABLE card_tables ADD COLUMN buy_in_min BIGINT;
ALTER TABLE card_tables ADD COLUMN buy_in_max BIGINT;
ALTER TABLE card_tables ADD COLUMN limits_since TIMESTAMP;

-- The tables already in play keep the limits of their game.
UPDATE card_tables SET
    small_blind = (SELECT g.small_blind FROM games g WHERE g.id = card_tables.game_id),
    big_blind = (SELECT g.big_blind FROM games g WHERE g.id = card_tables.game_id),
    buy_in_min = (SELECT g.buy_in_min FROM games g WHERE g.id = card_tables.game_id),
    buy_in_max = (SELECT g.buy_in_max FROM games g WHERE g.id = card_tables.game_id),
    limits_since = COALESCE(opened_at, updated_at)
WHERE game_id IS NOT NULL AND state IN ('open', 'running', 'suspended');

-- The history of a table's limits: the limits it opened with (kind `opening`) and every
-- change (kind `floor`: approved by a floor manager; `game_edit`: the admin edited the game).
-- A change is `pending` until it is applied (at the first hand started once announced and
-- due) or cancelled. `from_*` is the limits in force when the change was approved (NULL for
-- an opening); `effective_at` NULL means "from the next hand".
INSERT INTO sequences (name, value) VALUES ('limit_change', 0);

CREATE TABLE limit_changes (
    id BIGINT PRIMARY KEY NOT NULL,
    table_id BIGINT NOT NULL REFERENCES card_tables (id),
    game_id BIGINT REFERENCES games (id),
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    from_small_blind BIGINT,
    from_big_blind BIGINT,
    from_buy_in_min BIGINT,
    from_buy_in_max BIGINT,
    to_small_blind BIGINT NOT NULL,
    to_big_blind BIGINT NOT NULL,
    to_buy_in_min BIGINT NOT NULL,
    to_buy_in_max BIGINT,
    effective_at TIMESTAMP,
    approved_at TIMESTAMP NOT NULL,
    approved_by BIGINT REFERENCES staff (id),
    announced_at TIMESTAMP,
    announced_by BIGINT REFERENCES staff (id),
    applied_at TIMESTAMP,
    applied_by BIGINT REFERENCES staff (id),
    applied_hand INTEGER,
    cancelled_at TIMESTAMP,
    cancelled_by BIGINT REFERENCES staff (id),
    cancel_reason TEXT
);
-- One pending change per table at a time.
CREATE UNIQUE INDEX limit_changes_one_pending ON limit_changes (table_id) WHERE state = 'pending';
CREATE INDEX limit_changes_by_table ON limit_changes (table_id, applied_at);

INSERT INTO limit_changes (id, table_id, game_id, kind, state, to_small_blind, to_big_blind,
    to_buy_in_min, to_buy_in_max, approved_at, applied_at)
SELECT id, id, game_id, 'opening', 'applied', small_blind, big_blind, buy_in_min, buy_in_max,
    limits_since, limits_since
FROM card_tables WHERE limits_since IS NOT NULL;
UPDATE sequences SET value = COALESCE((SELECT MAX(id) FROM limit_changes), 0)
WHERE name = 'limit_change';

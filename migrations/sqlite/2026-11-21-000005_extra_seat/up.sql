-- BSOP 50: a game started with one extra player has a temporary extra seat (seats + 1)
ALTER TABLE card_tables ADD COLUMN extra_seat BOOLEAN NOT NULL DEFAULT 0;

-- Issue 17 §1: each game's colour on the floor board, set by the admin (#rrggbb; empty: a colour
-- picked from the game's number).
ALTER TABLE games ADD COLUMN colour TEXT NOT NULL DEFAULT '';

-- Issue 5: the player answers a seat call from their link: "on my way" or "need more time"
-- (the response window moved once, by CARDROOM_CALL_EXTENSION_MIN). The floor dashboard
-- shows the answer on the call.
ALTER TABLE seat_calls ADD COLUMN player_answer TEXT;
ALTER TABLE seat_calls ADD COLUMN answered_at TIMESTAMP;
ALTER TABLE seat_calls ADD COLUMN extended_at TIMESTAMP;

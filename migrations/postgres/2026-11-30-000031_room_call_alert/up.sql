-- How a seat call is announced on the dealers' tablets: 'sound' (a chime and a vibration),
-- 'vibrate' (a vibration only) or 'off'.
ALTER TABLE room ADD COLUMN call_alert TEXT NOT NULL DEFAULT 'sound';

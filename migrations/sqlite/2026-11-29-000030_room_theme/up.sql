-- The screens' theme, the room's choice: light, dark, or the device's own preference ('auto').
ALTER TABLE room ADD COLUMN theme TEXT NOT NULL DEFAULT 'auto';

-- A dealer's short PIN for taking a table over at its tablet (argon2, like passwords).
ALTER TABLE staff ADD COLUMN relief_pin_hash TEXT;

ALTER TABLE card_tables DROP COLUMN extra_seat;

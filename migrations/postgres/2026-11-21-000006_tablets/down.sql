ALTER TABLE seat_calls DROP COLUMN escalated_at;
DROP TABLE tablet_pairings;
DROP TABLE tablets;
DELETE FROM sequences WHERE name = 'tablet';

DROP TABLE dealer_breaks;
DROP TABLE dealer_roster;
DELETE FROM sequences WHERE name IN ('dealer_roster', 'dealer_break');

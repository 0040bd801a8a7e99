DROP INDEX cagnotte_dues_by_seating;

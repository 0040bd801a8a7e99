DROP TABLE pref_passes;
DROP TABLE accessible_seats;
DROP TABLE seat_preferences;

DROP INDEX waitlist_entries_report;
CREATE INDEX waitlist_entries_by_time ON waitlist_entries (joined_at);
DROP INDEX seatings_report;
CREATE INDEX seatings_by_time ON seatings (sat_at);
DROP INDEX hands_report;
CREATE INDEX hands_by_time ON hands (at);

-- Issue 14: a buy-in looks for the seating's due (cagnotte::on_buyin, PT-2007 7b) inside the
-- room's write turn; without an index that read scanned every due ever recorded, a table
-- that grows every night for years.
CREATE INDEX cagnotte_dues_by_seating ON cagnotte_dues (seating_id);

ALTER TABLE room DROP COLUMN call_alert;

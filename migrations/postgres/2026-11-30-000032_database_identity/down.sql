DROP TABLE database_identity;

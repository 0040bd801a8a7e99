DROP TABLE floor_messages;
DELETE FROM sequences WHERE name = 'floor_message';

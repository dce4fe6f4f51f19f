-- version 2: a created-at column
ALTER TABLE note ADD COLUMN created_at TEXT;
INSERT INTO migration_log(version) VALUES (2);

-- version 1: notes
CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE migration_log(version INTEGER NOT NULL);
INSERT INTO migration_log(version) VALUES (1);

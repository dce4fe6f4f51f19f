CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO item(name) VALUES ('seeded by flyway');

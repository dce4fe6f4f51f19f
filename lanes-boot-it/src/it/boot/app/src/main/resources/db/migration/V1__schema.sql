CREATE TABLE entry(id INTEGER PRIMARY KEY, client INTEGER NOT NULL, seq INTEGER NOT NULL,
                   UNIQUE (client, seq));
CREATE TABLE counter(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT INTO counter(name, value) VALUES ('hits', 0);
CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL);

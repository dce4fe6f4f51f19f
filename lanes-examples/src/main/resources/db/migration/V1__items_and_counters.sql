CREATE TABLE item(
    id       INTEGER PRIMARY KEY,
    name     TEXT    NOT NULL,
    quantity INTEGER NOT NULL DEFAULT 0 CHECK (quantity >= 0)
);
CREATE TABLE counter(
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);

-- every tenant database gets this at its first open, on its writer
CREATE TABLE note(
    id         INTEGER PRIMARY KEY,
    text       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);

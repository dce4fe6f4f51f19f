package dev.lanes;

/** SQLite's {@code PRAGMA synchronous} level for a database's connections. */
public enum Synchronous {
    /** No syncs: a power loss may corrupt the database. For tests and throwaway data. */
    OFF,
    /** WAL default: a commit survives a process crash; a power loss may lose the latest commits. */
    NORMAL,
    /** Every commit is synced: it survives a power loss too, at the cost of one fsync per group. */
    FULL
}

package dev.lanes.dqlite;

/**
 * What a statement run with {@code exec} reported: SQLite's {@code last_insert_rowid()} and
 * {@code changes()} on the leader's connection after it ran.
 *
 * @param lastInsertId the rowid of the last row inserted on this connection, or 0
 * @param rowsAffected the rows the statement changed (for multi-statement SQL, the last one's)
 */
public record DqliteResult(long lastInsertId, long rowsAffected) {}

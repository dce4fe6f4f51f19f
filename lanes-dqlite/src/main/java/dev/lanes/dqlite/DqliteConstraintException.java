package dev.lanes.dqlite;

/**
 * Code 19 (SQLITE_CONSTRAINT) or an extended code such as 1555 (PRIMARYKEY), 2067 (UNIQUE), 787
 * (FOREIGNKEY), 275 (CHECK), 1299 (NOTNULL): SQLite failed the statement atomically. A single
 * statement had no effect; sending it again fails the same way.
 */
public final class DqliteConstraintException extends DqliteServerException {
    /** A constraint failure from {@code node}: SQLite's extended {@code code} and the server's text. */
    public DqliteConstraintException(long code, boolean mayHaveRun, String node, String serverMessage,
            String message) {
        super(code, mayHaveRun, node, serverMessage, message);
    }
}

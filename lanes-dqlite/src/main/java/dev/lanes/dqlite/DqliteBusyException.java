package dev.lanes.dqlite;

/**
 * Code 5 (SQLITE_BUSY) or one of its extended codes: another connection holds the write lock, a
 * checkpoint is running, or (for a membership change) another change is in progress. The request
 * did not run; it may be sent again later.
 */
public final class DqliteBusyException extends DqliteServerException {
    /** A busy refusal from {@code node}: SQLite's extended {@code code} and the server's text. */
    public DqliteBusyException(long code, boolean mayHaveRun, String node, String serverMessage,
            String message) {
        super(code, mayHaveRun, node, serverMessage, message);
    }
}

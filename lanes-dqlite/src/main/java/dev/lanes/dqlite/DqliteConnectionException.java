package dev.lanes.dqlite;

/**
 * The connection to a node failed: it could not be opened, it dropped, or it was already closed.
 * The connection is closed and never reused. {@link #mayHaveRun()} is false when nothing of the
 * request was sent (a connect failure, a closed session) or the request cannot change anything,
 * and true when a request that can was sent, in part or in whole, before the failure.
 */
public class DqliteConnectionException extends DqliteException {
    /** A failed connection to {@code node}; {@code mayHaveRun} says whether a request that can change the cluster was sent before it failed. */
    public DqliteConnectionException(boolean mayHaveRun, String node, String message, Throwable cause) {
        super(0, mayHaveRun, node, message, cause);
    }
}

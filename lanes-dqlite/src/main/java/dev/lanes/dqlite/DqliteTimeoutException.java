package dev.lanes.dqlite;

/**
 * No answer within the request timeout (or the connect timeout). The connection is closed and
 * never reused, since a late answer would be taken for the next request's. A request that can
 * change the cluster and was sent {@link #mayHaveRun() may have run}.
 */
public final class DqliteTimeoutException extends DqliteConnectionException {
    /** No answer from {@code node} in time. */
    public DqliteTimeoutException(boolean mayHaveRun, String node, String message) {
        super(mayHaveRun, node, message, null);
    }
}

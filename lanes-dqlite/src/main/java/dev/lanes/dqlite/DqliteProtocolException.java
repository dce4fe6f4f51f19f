package dev.lanes.dqlite;

/**
 * The server's answer did not follow the wire protocol (an unexpected message type, a malformed
 * body, a message over the size limit). The connection is closed. A request that can change the
 * cluster {@link #mayHaveRun() may have run}.
 */
public final class DqliteProtocolException extends DqliteException {
    /** An answer from {@code node} that did not follow the wire protocol. */
    public DqliteProtocolException(boolean mayHaveRun, String node, String message) {
        super(0, mayHaveRun, node, message, null);
    }
}

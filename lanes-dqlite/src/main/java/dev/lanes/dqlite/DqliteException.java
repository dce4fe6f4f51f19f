package dev.lanes.dqlite;

/**
 * The root of every error this client raises. Unchecked.
 *
 * <p>{@link #mayHaveRun()} is the one question a caller must ask: {@code false} means the request
 * certainly had no effect on the cluster (it was refused before it ran, never sent, failed the way
 * SQLite fails a statement atomically, or cannot change anything), so it may be sent again;
 * {@code true} means it may have taken effect (a commit interrupted by leadership loss, a
 * connection that dropped or timed out after the request was sent), so its outcome is unknown and
 * must be resolved, never blindly retried. The client itself never retries a request that may
 * have reached a server.
 */
public class DqliteException extends RuntimeException {
    private final long code;
    private final boolean mayHaveRun;
    private final String node;

    /**
     * @param code SQLite's or dqlite's numeric code from the server, or 0 for a failure on the
     *     client's side
     * @param mayHaveRun whether the request may have taken effect
     * @param node the {@code host:port} of the node involved, or null
     */
    public DqliteException(long code, boolean mayHaveRun, String node, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.mayHaveRun = mayHaveRun;
        this.node = node;
    }

    /** The server's numeric code (SQLite extended result code or dqlite's own), or 0. */
    public long code() {
        return code;
    }

    /**
     * Whether the request may have taken effect. {@code false}: it certainly did not, and may be
     * sent again. {@code true}: its outcome is unknown.
     */
    public boolean mayHaveRun() {
        return mayHaveRun;
    }

    /** The {@code host:port} of the node the failure happened on, or null. */
    public String node() {
        return node;
    }
}

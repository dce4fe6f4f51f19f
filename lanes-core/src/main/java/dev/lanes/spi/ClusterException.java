package dev.lanes.spi;

import java.util.Objects;

/**
 * A request to a {@link ClusterEngine} or on a {@link ClusterSession} failed. Unchecked. {@link
 * #kind()} is the one thing Lanes decides on; {@link #code()} is the engine's numeric code (for
 * SQLite engines, SQLite's extended result code), for messages and diagnosis.
 */
public class ClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What the failure means for the request. */
    public enum Kind {
        /**
         * The request certainly did not run, and may be sent again: the node refused it before
         * running it (it is not the leader, no leader was found, the session was closed before it
         * was sent), or SQLite failed it atomically (a syntax error, a missing table).
         */
        NOT_RUN,
        /**
         * The request may have taken effect: the connection dropped or timed out after it was
         * sent, or a commit lost its leadership while it waited for replication. Never send it
         * again blindly.
         */
        MAY_HAVE_RUN,
        /** Another connection holds the write lock; nothing ran, and it may be sent again. */
        BUSY,
        /** A constraint (primary key, unique, not null, check, foreign key) failed; nothing ran. */
        CONSTRAINT
    }

    private final Kind kind;
    private final long code;

    /**
     * @param kind what the failure means for the request
     * @param code the engine's numeric code, or 0 for a failure on the client's side
     */
    public ClusterException(Kind kind, long code, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.code = code;
    }

    /** What the failure means for the request. */
    public Kind kind() {
        return kind;
    }

    /** The engine's numeric code (SQLite's extended result code for SQLite engines), or 0. */
    public long code() {
        return code;
    }
}

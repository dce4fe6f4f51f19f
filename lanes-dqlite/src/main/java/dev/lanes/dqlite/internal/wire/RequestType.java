package dev.lanes.dqlite.internal.wire;

/**
 * The requests this client sends, with their wire codes.
 *
 * <p>{@link #mayTakeEffect()} says whether the request can change the cluster's state (a
 * database or the membership). The others (leader lookup, registration, open, prepare, finalize,
 * listing) change nothing, so a failure of theirs never leaves an outcome in doubt.
 */
public enum RequestType {
    LEADER(0, false),
    CLIENT(1, false),
    OPEN(3, false),
    PREPARE(4, false),
    EXEC(5, true),
    /** A prepared statement yielding rows; a statement such as {@code INSERT ... RETURNING} writes. */
    QUERY(6, true),
    FINALIZE(7, false),
    EXEC_SQL(8, true),
    QUERY_SQL(9, true),
    ADD(12, true),
    ASSIGN(13, true),
    REMOVE(14, true),
    CLUSTER(16, false);

    private final int code;
    private final boolean mayTakeEffect;

    RequestType(int code, boolean mayTakeEffect) {
        this.code = code;
        this.mayTakeEffect = mayTakeEffect;
    }

    /** The message type byte. */
    public int code() {
        return code;
    }

    /** Whether the request can change a database or the cluster's membership. */
    public boolean mayTakeEffect() {
        return mayTakeEffect;
    }

    /** Whether the request changes the cluster's membership. */
    public boolean isMembership() {
        return this == ADD || this == ASSIGN || this == REMOVE;
    }
}

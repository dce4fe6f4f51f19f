package dev.lanes.history;

import java.util.List;

/**
 * One way a history broke a promise of Lanes, with the smallest explanation the checker found:
 * the operations involved and, for a cycle, each dependency on it.
 */
record Anomaly(Type type, String explanation, List<Long> ops) {

    Anomaly {
        ops = List.copyOf(ops);
    }

    /** What went wrong; the names follow Adya's and Elle's where there is one. */
    enum Type {
        /** One value appears twice in a list: an append took effect twice. */
        DUPLICATE,
        /** A list holds a value no operation appended (to that key). */
        GARBAGE,
        /** G1a: a value of a ROLLED_BACK or NOT_STARTED operation was observed or persisted. */
        ABORTED_READ,
        /** G1b: a read saw some but not the last of another transaction's appends to a key. */
        INTERMEDIATE_READ,
        /** Two observations of a list are not prefixes of one another: a list reordered. */
        INCOMPATIBLE_ORDER,
        /** A transaction's reads disagree with its own appends and earlier reads. */
        INTERNAL,
        /** An acknowledged append (or one a read observed) is missing from the final state. */
        LOST_WRITE,
        /** An operation's appends took effect in part. */
        NON_ATOMIC,
        /** A read missed an append acknowledged before the read began. */
        STALE_READ,
        /** In some list, an append precedes another that was acknowledged before it was invoked. */
        REALTIME_ORDER,
        /** A write applied after cork() and never uncorked survived a crash. */
        PREMATURELY_DURABLE,
        /** An uncork reported corked writes lost: outside what this checker models. */
        CORK_REVOKED,
        /** A cycle of write-write dependencies. */
        G0,
        /** A cycle of write-write and write-read dependencies. */
        G1C,
        /** A dependency cycle with exactly one anti-dependency (read-write edge). */
        G_SINGLE,
        /** A dependency cycle with several anti-dependencies. */
        G2,
        /** {@link #G0} that needs a real-time edge: strict serializability, not serializability. */
        G0_REALTIME,
        G1C_REALTIME,
        G_SINGLE_REALTIME,
        G2_REALTIME
    }

    @Override
    public String toString() {
        return type + ": " + explanation;
    }
}

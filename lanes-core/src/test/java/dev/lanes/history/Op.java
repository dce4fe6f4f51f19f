package dev.lanes.history;

import dev.lanes.WriteOutcome;
import java.util.List;

/**
 * One operation of a history: a client's request with its micro-operations, when it was invoked
 * and when it completed (both {@link System#nanoTime()} of the process that ran it), and how it
 * ended. An operation whose completion was never seen (its process was killed) has {@code
 * complete == NEVER} and outcome {@link Outcome#UNKNOWN}.
 */
record Op(long id, int client, Kind kind, List<Mop> mops, long invoke, long complete,
        Outcome outcome) {

    /** The completion time of an operation that never completed. */
    static final long NEVER = Long.MAX_VALUE;

    Op {
        mops = List.copyOf(mops);
        if (complete != NEVER && complete < invoke) {
            throw new IllegalArgumentException("op " + id + " completed (" + complete
                    + ") before it was invoked (" + invoke + ")");
        }
        if (complete == NEVER && outcome != Outcome.UNKNOWN) {
            throw new IllegalArgumentException("op " + id + " never completed, so its outcome is "
                    + "UNKNOWN, not " + outcome);
        }
        if (outcome != Outcome.OK) {
            for (Mop m : mops) {
                if (m instanceof Mop.Read r && r.values() != null) {
                    throw new IllegalArgumentException("op " + id + " ended " + outcome
                            + ", so its reads have no result; got " + r);
                }
            }
        }
    }

    /** How a client reached Lanes. */
    enum Kind {
        /** {@code db.write(body)}: group commit; the body appends and reads. */
        WRITE,
        /** {@code db.writeAsync(body)}, joined by the client. */
        WRITE_ASYNC,
        /** {@code db.execute(sql, args)}: one append as a single statement. */
        EXECUTE,
        /** {@code db.executeBatch(statements)}: several appends, atomic. */
        BATCH,
        /** {@code db.begin()}: an interactive transaction that pins the writer lane. */
        TRANSACTION,
        /** {@code db.query(sql, args)}: one key, on a reader. */
        QUERY,
        /** {@code db.read(body)}: several keys in one snapshot, on a reader. */
        READ,
        /** {@code db.readAsync(body)}, joined by the client. */
        READ_ASYNC,
        /**
         * HOOK(db.dataSource()): a JDBC client ({@code DataSource.getConnection()}, autocommit
         * statements and {@code setAutoCommit(false)} transactions) is one more kind; the
         * checker needs nothing new for it. {@link ListAppendWorkload} refuses it until the API
         * exists.
         */
        JDBC,
        /** {@code db.cork()}: later writes are applied but not durable until uncork. */
        CORK,
        /** {@code db.uncork()}: commits what was corked. */
        UNCORK
    }

    /** How an operation ended, as the client saw it. */
    enum Outcome {
        OK, ROLLED_BACK, NOT_STARTED, UNKNOWN;

        static Outcome of(WriteOutcome outcome) {
            return switch (outcome) {
                case ROLLED_BACK -> ROLLED_BACK;
                case NOT_STARTED -> NOT_STARTED;
                case UNKNOWN -> UNKNOWN;
            };
        }

        /** Whether the operation certainly did not happen. */
        boolean failed() {
            return this == ROLLED_BACK || this == NOT_STARTED;
        }
    }

    boolean completed() {
        return complete != NEVER;
    }

    boolean isCorkControl() {
        return kind == Kind.CORK || kind == Kind.UNCORK;
    }

    boolean appends() {
        return mops.stream().anyMatch(m -> m instanceof Mop.Append);
    }

    /** The same operation completed at {@code at} with {@code outcome} and these micro-ops. */
    Op completedAs(long at, Outcome end, List<Mop> withReads) {
        return new Op(id, client, kind, withReads, invoke, at, end);
    }

    @Override
    public String toString() {
        return HistoryText.op(this, 0);
    }
}

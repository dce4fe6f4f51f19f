package dev.lanes.internal.writer;

import dev.lanes.DatabaseState;
import java.util.List;

/**
 * The small decisions {@link LaneState} returns from under its lock, which the lane acts on once
 * the lock is released, and the cork's phases. Immutable values; nothing here holds a lock.
 */
final class LaneDecision {
    private LaneDecision() {}

    /** What admission decided; the caller acts on it once the lock is released. */
    enum Admitted {
        /** The caller holds the lane and runs the turn on its own thread. */
        LEAD,
        /** Queued; a turn under way, or already scheduled, will take it. */
        QUEUED,
        /** Queued, and the caller must submit the lane to the pool. */
        SCHEDULE
    }

    /**
     * What the holder does after its turn released the lane: nothing, submit it to the pool, or
     * wake the blocked caller it was handed to ({@link #handedTo}).
     */
    record Next(boolean schedule, WriteRequest handedTo) {
        static final Next IDLE = new Next(false, null);
        static final Next SCHEDULE = new Next(true, null);
    }

    /** Requests failed under the lock, to deliver after it; and whether a transaction ended. */
    record Failed(List<WriteRequest> requests, boolean transactionEnded) {}

    /** A withdrawn request's context, for its message: what held the lane, what waited. */
    record Withdrawn(boolean withdrawn, int queued, boolean pinned) {}

    /** Why a queued request is taken out of the queue unrun. */
    enum Withdrawal {
        /** Its start timeout passed. */
        START_TIMEOUT,
        /** The lane's holder is about to wait for it in a body. */
        HOLDER_WAITS,
        /** The body that queued it stays parked in the same turn ({@link OwnLaneWatch}). */
        BODY_PARKED
    }

    /** What a close decided: the requests it failed, and whether to submit the lane. */
    record Closing(List<WriteRequest> refused, boolean schedule) {}

    /** The cork's phases; see {@link Cork}. */
    enum CorkPhase { OFF, REQUESTED, OPEN, BROKEN }

    /** A turn's work, and the cancelled requests dropped unrun before it (or null). */
    record Taken(List<WriteRequest> group, List<WriteRequest> dropped) {}

    /** The lane's state at one instant, for diagnostics. */
    record View(DatabaseState lifecycle, String poisonCause, Throwable deadCause, int queued,
            InteractiveTransaction pinned, boolean corked) {}
}

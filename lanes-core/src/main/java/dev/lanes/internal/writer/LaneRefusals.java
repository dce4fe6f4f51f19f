package dev.lanes.internal.writer;

import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.OverloadedException;
import dev.lanes.QueueFullException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;

/**
 * What a writer lane says when it refuses a request before it runs, one message per rule: every
 * one is {@code NOT_STARTED}, names the database, and says what to do. Stateless; {@link
 * LaneState} decides when each applies.
 */
final class LaneRefusals {
    private LaneRefusals() {}

    /** A body that would wait for another write of its own lane waits for itself. */
    static LanesException waitInItsOwnBody(String name) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body cannot "
                + "wait for another write to its own database (it would wait for itself); do the "
                + "work in the same body, or queue it with writeAsync and do not wait for it "
                + "there", null);
    }

    /**
     * A body waits for the future of a write it queued to its own lane, which cannot run before
     * the body's turn ends: withdrawn unrun when it was still queued.
     */
    static LanesException joinedInItsOwnBody(String name, String what, boolean withdrawn) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body cannot "
                + "wait for the future of " + what + ", queued to its own database, which runs "
                + "only after the body's turn ends (it would wait for itself)"
                + (withdrawn ? "; that write was withdrawn and never ran" : "") + ". Do the work "
                + "in the same body, or wait for the future after the body returned", null);
    }

    /** A body that calls the transaction pinning its own lane waits for itself. */
    static LanesException stepFromItsOwnBody(String name) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a body cannot "
                + "call its own transaction (it would wait for itself)", null);
    }

    /** A thread whose open transaction holds the lane would wait for that transaction. */
    static LanesException waitForItsOwnTransaction(String name) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": this thread "
                + "holds an open transaction on " + name + "; a write from it outside that "
                + "transaction would wait for the transaction, which waits for this thread. Run "
                + "the write inside the transaction, or commit or roll it back first; the write "
                + "never ran", null);
    }

    /** The lane is closing, closed or dead. */
    static LanesException notRunning(String name, DatabaseState state, Throwable deadCause) {
        switch (state) {
            case CLOSING:
                return new ClosingException(name + ": the database is closing and accepts no more "
                        + "work; the request never ran");
            case CLOSED:
                return new ClosedException(name + ": the database is closed; the request never ran");
            case DEAD:
            default:
                return new DatabaseDeadException(name + ": the database is dead (" + deadCause
                        + "); the request never ran. Reopen it once the cause is fixed", deadCause);
        }
    }

    static LanesException poisoned(String name, String cause) {
        return new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the writer is "
                + "poisoned and refuses work (" + cause + "); reads continue. Check the data, "
                + "then close and reopen the database", null);
    }

    static LanesException poisonedBeforeItRan(String name, String cause) {
        return new WriterPoisonedException(WriteOutcome.NOT_STARTED, name + ": the writer was "
                + "poisoned (" + cause + ") before this write ran; it never ran", null);
    }

    static LanesException cannotOpen(String name, Throwable cause) {
        return new DatabaseDeadException(name + ": the database cannot be opened (" + cause
                + "); the request never ran", cause);
    }

    static LanesException shutDownBeforeItRan(String name) {
        return new ClosedException(name + ": the database was shut down before this write ran; "
                + "it never ran");
    }

    static LanesException queueFull(String name, int queued, int running) {
        return new OverloadedException(name + ": write queue full (" + queued + " queued, "
                + running + " in the running group); retry later or raise writeQueueCapacity");
    }

    static LanesException queueStayedFull(String name, long timeoutNanos, int queued,
            int capacity) {
        return new QueueFullException(name + ": write queue stayed full for "
                + timeoutNanos / 1_000_000 + " ms (" + queued + " queued, capacity " + capacity
                + "); the write never ran. Retry later or raise writeQueueCapacity");
    }

    static LanesException interrupted(String name, InterruptedException e) {
        return new CancelledException(WriteOutcome.NOT_STARTED, name + ": interrupted while "
                + "waiting for room in the write queue; the write never ran", e);
    }

    /** Why an uncork cannot be asked for now, or null when it can. */
    static String uncorkRefusal(LaneDecision.CorkPhase phase, boolean uncorkRequested,
            boolean transactionPinned) {
        boolean corked = phase == LaneDecision.CorkPhase.OPEN
                || phase == LaneDecision.CorkPhase.BROKEN;
        return phase == LaneDecision.CorkPhase.OFF ? "not corked"
                : uncorkRequested ? "an uncork is already pending"
                // still queued behind the open transaction: an uncork deferred now would run
                // before it and leave the database corked
                : transactionPinned && !corked ? "cork() has not taken effect yet (it waits "
                        + "behind an open transaction); uncork after it returned"
                : null;
    }

    /** A cork or uncork that cannot be asked for now. */
    static LanesException uncork(String name, String why) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": " + why, null);
    }
}

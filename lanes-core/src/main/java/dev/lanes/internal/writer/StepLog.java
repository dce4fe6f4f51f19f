package dev.lanes.internal.writer;

import dev.lanes.internal.writer.WriteRequest.TransactionStep;
import java.util.ArrayList;
import java.util.List;

/**
 * What the steps of one interactive transaction gave its caller, in order: each statement with
 * its result, or the mark that it failed and undid itself. A {@link SharedCommit} runs a waiting
 * member again from it when another member ended their shared transaction, and keeps the member
 * only if every step gives the caller what it gave the first time, so the member's caller cannot
 * tell the two runs apart.
 *
 * <p>A transaction cannot run again once it ran a body (Java code the lane cannot repeat), a step
 * stopped at its query timeout, or more than {@link #MAX_STEPS} steps (the log would hold their
 * results): then it is {@linkplain #replayable() not replayable}, and the log lets go of what it
 * held.
 *
 * <p>Holder only: written by the thread that runs the transaction's steps, read by the one that
 * replays it, both holding the lane.
 */
final class StepLog {
    /** The most steps a replayable transaction logs. */
    static final int MAX_STEPS = 256;

    /** What stands for a step that failed and undid itself. */
    static final Object FAILED = new Object();

    // null until the first step is logged
    private List<TransactionStep> steps;
    private List<Object> results;
    private boolean forgotten;

    /** Logs a step that returned {@code result} to its caller. */
    void done(TransactionStep step, Object result) {
        if (forgotten) {
            return;
        }
        if (step instanceof WriteRequest.Run || size() == MAX_STEPS) {
            forget();
            return;
        }
        if (steps == null) {
            steps = new ArrayList<>(4);
            results = new ArrayList<>(4);
        }
        steps.add(step);
        results.add(result);
    }

    /** Logs a step that failed and left the transaction as it was before it. */
    void failed(TransactionStep step) {
        done(step, FAILED);
    }

    /** The transaction cannot run again. */
    void forget() {
        forgotten = true;
        steps = null;
        results = null;
    }

    boolean replayable() {
        return !forgotten;
    }

    int size() {
        return steps == null ? 0 : steps.size();
    }

    TransactionStep step(int i) {
        return steps.get(i);
    }

    Object result(int i) {
        return results.get(i);
    }
}

package dev.lanes.internal.cluster;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Attempts within one time budget, with a pause between them that doubles from {@code base} up
 * to {@code max}, jittered (half to all of it), and never past the budget. Used as {@code while
 * (retry.next()) { ... }}. Real time: the budget is the cluster's to spend, not a test clock's.
 *
 * <p>Not thread-safe: one per retry loop, on one thread.
 */
final class Retry {
    private final long start = System.nanoTime();
    private final long budgetNanos;
    private final long baseNanos;
    private final long maxNanos;
    private int attempts;

    Retry(long budgetNanos, long baseNanos, long maxNanos) {
        this.budgetNanos = budgetNanos;
        this.baseNanos = baseNanos;
        this.maxNanos = maxNanos;
    }

    /**
     * Whether another attempt may start: the first always, a later one after its pause while the
     * budget lasts.
     */
    boolean next() {
        if (attempts++ == 0) {
            return true;
        }
        long remaining = remainingNanos();
        if (remaining <= 0) {
            return false;
        }
        long pause = Math.min(baseNanos << Math.min(attempts - 2, 20), maxNanos);
        LockSupport.parkNanos(Math.min(remaining,
                pause / 2 + ThreadLocalRandom.current().nextLong(pause / 2 + 1)));
        return true;
    }

    /** What is left of the budget, at least 1 ms: an attempt begun needs a timeout to run with. */
    long timeoutNanos() {
        return Math.max(remainingNanos(), TimeUnit.MILLISECONDS.toNanos(1));
    }

    long remainingNanos() {
        return budgetNanos - elapsedNanos();
    }

    long elapsedNanos() {
        return System.nanoTime() - start;
    }

    /** The attempts begun so far. */
    int attempts() {
        return attempts;
    }
}

package dev.lanes.internal.writer;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one writer's transactions: written by the lane's holder (and by callers, for
 * refusals at admission), read by diagnostics at any time.
 */
public final class WriterCounters {
    final LongAdder acquisitions = new LongAdder();
    final LongAdder busyRefusals = new LongAdder();
    final LongAdder busyAbsorbed = new LongAdder();
    final LongAdder beginErrors = new LongAdder();
    final LongAdder committed = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder unknown = new LongAdder();
    final LongAdder groups = new LongAdder();
    final LongAdder overloads = new LongAdder();
    final LongAdder replays = new LongAdder();

    /**
     * A transaction began after {@code refusals} busy refusals, which the retry overcame; for a
     * writer connection outside this package (a cluster's).
     */
    public void began(int refusals) {
        acquisitions.increment();
        busyAbsorbed.add(refusals);
    }

    /** A {@code BEGIN} was refused busy. */
    public void busyRefused() {
        busyRefusals.increment();
    }

    /** A {@code BEGIN} failed for a reason other than busy. */
    public void beginFailed() {
        beginErrors.increment();
    }

    dev.lanes.DatabaseDiagnostics.WriterCounters snapshot() {
        return new dev.lanes.DatabaseDiagnostics.WriterCounters(acquisitions.sum(),
                busyRefusals.sum(), busyAbsorbed.sum(), beginErrors.sum(), failed.sum(),
                unknown.sum());
    }
}

package dev.lanes.internal.writer;

import dev.lanes.internal.util.CounterSlots;

/**
 * Counters of one writer's transactions: written by the lane's holder (and by callers, for
 * refusals at admission, and by whoever delivers an outcome), read by diagnostics at any time.
 * They are the slots of two arrays, named by the constants below, each made at its first count
 * ({@link CounterSlots}: a database that never wrote holds none, one that never failed holds
 * only the three counters every write bumps): a lane is written by one holder
 * at a time, so the counters see little contention, and one array costs a database far less
 * than an adder per counter.
 */
public final class WriterCounters extends CounterSlots {
    // bumped by every write
    static final int ACQUISITIONS = 0;
    static final int COMMITTED = 1;
    static final int GROUPS = 2;
    // the rare ones
    static final int BUSY_REFUSALS = 3;
    static final int BUSY_ABSORBED = 4;
    static final int BEGIN_ERRORS = 5;
    static final int FAILED = 6;
    static final int UNKNOWN = 7;
    static final int OVERLOADS = 8;
    static final int REPLAYS = 9;

    @Override
    protected int count() {
        return 10;
    }

    @Override
    protected int common() {
        return 3;
    }

    void increment(int counter) {
        add(counter, 1);
    }

    long sum(int counter) {
        return get(counter);
    }

    /**
     * A transaction began after {@code refusals} busy refusals, which the retry overcame; for a
     * writer connection outside this package (a cluster's).
     */
    public void began(int refusals) {
        increment(ACQUISITIONS);
        add(BUSY_ABSORBED, refusals);
    }

    /** A {@code BEGIN} was refused busy. */
    public void busyRefused() {
        increment(BUSY_REFUSALS);
    }

    /** A {@code BEGIN} failed for a reason other than busy. */
    public void beginFailed() {
        increment(BEGIN_ERRORS);
    }

    /** The counters now. */
    dev.lanes.WriterDiagnostics.Counters snapshot() {
        return new dev.lanes.WriterDiagnostics.Counters(sum(COMMITTED), sum(FAILED), sum(GROUPS),
                sum(OVERLOADS), sum(REPLAYS), sum(UNKNOWN), sum(ACQUISITIONS),
                sum(BUSY_REFUSALS), sum(BUSY_ABSORBED), sum(BEGIN_ERRORS));
    }
}

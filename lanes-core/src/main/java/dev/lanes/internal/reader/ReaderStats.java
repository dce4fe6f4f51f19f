package dev.lanes.internal.reader;

import dev.lanes.ReaderDiagnostics;
import dev.lanes.internal.util.CounterSlots;
import java.time.Duration;

/**
 * The counters of one {@link ReaderSet} for {@link ReaderDiagnostics}. Lock-free, bumped by
 * whichever thread saw the event, as the slots of arrays each made at its first count ({@link
 * CounterSlots}: a database that never read holds none, one whose reads never timed out or
 * failed holds only the four that every read bumps or raises). Every read bumps two of them
 * (acquisitions, completed checkouts): by compare-and-set on their slots while reads come one at
 * a time, and once two reads counted at the same moment, each thread on a stripe of its own
 * ({@link CounterSlots}), so that reads on different cores do not pass one cache line back and
 * forth twice per read. The peaks only grow, by compare-and-set, and are only read by a read
 * that does not raise them. A snapshot reads each counter on its own, so counters may be a few
 * events apart from one another; none is ever lost or counted twice.
 */
final class ReaderStats extends CounterSlots {
    // bumped (or raised) by every read
    private static final int ACQUISITIONS = 0;
    private static final int COMPLETED_CHECKOUTS = 1;
    private static final int PEAK_CHECKED_OUT = 2;
    private static final int LONGEST_HOLD_NANOS = 3;
    // the rare ones
    static final int CHECKOUT_TIMEOUTS = 4;
    private static final int BUSY_TIMEOUTS = 5;
    static final int REPLACED = 6;
    private static final int DEADLINES = 7;
    private static final int CANCELLATIONS = 8;

    @Override
    protected int count() {
        return 9;
    }

    @Override
    protected int common() {
        return 4;
    }

    /** One more event of the rare kind {@code counter}. */
    void increment(int counter) {
        add(counter, 1);
    }

    /** A reader stayed blocked for the whole busy timeout. */
    void busyTimedOut() {
        add(BUSY_TIMEOUTS, 1);
    }

    /** A read was stopped by its deadline, or found it passed before it started. */
    void deadlineExceeded() {
        add(DEADLINES, 1);
    }

    /** A read was cancelled. */
    void cancelled() {
        add(CANCELLATIONS, 1);
    }

    /** A read took a reader. */
    void acquired() {
        add(ACQUISITIONS, 1);
    }

    /** A read took a reader; {@code out} are checked out now, counting it. */
    void checkedOut(int out) {
        raise(PEAK_CHECKED_OUT, out);
    }

    /** A read gave its reader back after holding it {@code heldNanos}. */
    void returned(long heldNanos) {
        add(COMPLETED_CHECKOUTS, 1);
        raise(LONGEST_HOLD_NANOS, heldNanos);
    }

    ReaderDiagnostics diagnostics(int capacity, Duration checkoutTimeout, Duration busyTimeout,
            int out, int openConnections, int waiting) {
        return new ReaderDiagnostics(capacity, checkoutTimeout, busyTimeout,
                Math.max(0, capacity - out), openConnections, waiting, get(ACQUISITIONS),
                get(CHECKOUT_TIMEOUTS), get(BUSY_TIMEOUTS), out, (int) get(PEAK_CHECKED_OUT),
                get(COMPLETED_CHECKOUTS), Duration.ofNanos(get(LONGEST_HOLD_NANOS)),
                get(REPLACED), get(DEADLINES), get(CANCELLATIONS));
    }
}

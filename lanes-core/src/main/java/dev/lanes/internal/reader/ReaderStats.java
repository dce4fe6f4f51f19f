package dev.lanes.internal.reader;

import dev.lanes.ReaderDiagnostics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one {@link ReaderSet} for {@link ReaderDiagnostics}. Lock-free, bumped by
 * whichever thread saw the event: the two that every read bumps are adders, since parallel
 * reads of one database bump them at once; the rare ones (timeouts, replacements, deadlines,
 * cancellations) and the two peaks are the slots of one {@link AtomicLongArray}, named by the
 * constants below, which costs a database far less than an adder each; the peaks only grow, by
 * compare-and-set. A snapshot reads each counter on its own, so counters may be a few events
 * apart from one another.
 */
final class ReaderStats {
    static final int CHECKOUT_TIMEOUTS = 0;
    static final int BUSY_TIMEOUTS = 1;
    static final int REPLACED = 2;
    static final int DEADLINES = 3;
    static final int CANCELLATIONS = 4;
    private static final int PEAK_CHECKED_OUT = 5;
    private static final int LONGEST_HOLD_NANOS = 6;

    final LongAdder acquisitions = new LongAdder();
    private final LongAdder completedCheckouts = new LongAdder();
    private final AtomicLongArray counts = new AtomicLongArray(7);

    /** One more event of the rare kind {@code counter}. */
    void increment(int counter) {
        counts.getAndIncrement(counter);
    }

    /** A read took a reader; {@code out} are checked out now, counting it. */
    void checkedOut(int out) {
        if (out > counts.get(PEAK_CHECKED_OUT)) {
            counts.accumulateAndGet(PEAK_CHECKED_OUT, out, Math::max);
        }
    }

    /** A read gave its reader back after holding it {@code heldNanos}. */
    void returned(long heldNanos) {
        completedCheckouts.increment();
        if (heldNanos > counts.get(LONGEST_HOLD_NANOS)) {
            counts.accumulateAndGet(LONGEST_HOLD_NANOS, heldNanos, Math::max);
        }
    }

    ReaderDiagnostics diagnostics(int capacity, Duration checkoutTimeout, Duration busyTimeout,
            int out, int openConnections, int waiting) {
        return new ReaderDiagnostics(capacity, checkoutTimeout, busyTimeout,
                Math.max(0, capacity - out), openConnections, waiting, acquisitions.sum(),
                counts.get(CHECKOUT_TIMEOUTS), counts.get(BUSY_TIMEOUTS), out,
                (int) counts.get(PEAK_CHECKED_OUT), completedCheckouts.sum(),
                Duration.ofNanos(counts.get(LONGEST_HOLD_NANOS)), counts.get(REPLACED),
                counts.get(DEADLINES), counts.get(CANCELLATIONS));
    }
}

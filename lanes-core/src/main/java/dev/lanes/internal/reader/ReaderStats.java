package dev.lanes.internal.reader;

import dev.lanes.ReaderDiagnostics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one {@link ReaderSet} for {@link ReaderDiagnostics}. Lock-free: every field is
 * an adder or an atomic, bumped by whichever thread saw the event; the two peaks only grow, by
 * compare-and-set. A snapshot reads each counter on its own, so counters may be a few events
 * apart from one another.
 */
final class ReaderStats {
    final LongAdder acquisitions = new LongAdder();
    final LongAdder checkoutTimeouts = new LongAdder();
    final LongAdder busyTimeouts = new LongAdder();
    final LongAdder replaced = new LongAdder();
    final LongAdder deadlines = new LongAdder();
    final LongAdder cancellations = new LongAdder();
    private final LongAdder completedCheckouts = new LongAdder();
    private final AtomicInteger peakCheckedOut = new AtomicInteger();
    private final AtomicLong longestHoldNanos = new AtomicLong();

    /** A read took a reader; {@code out} are checked out now, counting it. */
    void checkedOut(int out) {
        if (out > peakCheckedOut.get()) {
            peakCheckedOut.accumulateAndGet(out, Math::max);
        }
    }

    /** A read gave its reader back after holding it {@code heldNanos}. */
    void returned(long heldNanos) {
        completedCheckouts.increment();
        if (heldNanos > longestHoldNanos.get()) {
            longestHoldNanos.accumulateAndGet(heldNanos, Math::max);
        }
    }

    ReaderDiagnostics diagnostics(int capacity, Duration checkoutTimeout, Duration busyTimeout,
            int out, int openConnections, int waiting) {
        return new ReaderDiagnostics(capacity, checkoutTimeout, busyTimeout,
                Math.max(0, capacity - out), openConnections, waiting, acquisitions.sum(),
                checkoutTimeouts.sum(), busyTimeouts.sum(), out, peakCheckedOut.get(),
                completedCheckouts.sum(), Duration.ofNanos(longestHoldNanos.get()),
                replaced.sum(), deadlines.sum(), cancellations.sum());
    }
}

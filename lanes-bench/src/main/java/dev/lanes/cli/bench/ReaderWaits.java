package dev.lanes.cli.bench;

import dev.lanes.MetricsListener;

/**
 * The waits of Lanes' reads for a reader connection in one run, as the runtime reports them
 * ({@link MetricsListener#readerCheckout}): installed on the bench's runtime, it records every
 * wait that ended within the run's measured window ({@link WorkloadRunner.WindowListener}),
 * with a reader or without one, and nothing before the window is known or after it ends (the
 * schema, the warm-up, the consistency check). In the jdbc scenario's mixed part every reader
 * checkout is a read-only transaction's, so these are the waits of those transactions.
 *
 * <p>Concurrency: the runtime calls {@link #readerCheckout} from many threads; each record is
 * an array increment under this object's lock, held for nanoseconds. The window is published
 * through a volatile field before any measured thread is released. {@link #latency()} is read
 * after the run.
 */
final class ReaderWaits implements MetricsListener, WorkloadRunner.WindowListener {
    private final LatencyRecorder recorder = new LatencyRecorder();
    /** {@code {start, end}} of the window, or null until it is fixed. */
    private volatile long[] window;

    @Override
    public void measuring(long start, long end) {
        window = new long[] {start, end};
    }

    @Override
    public void readerCheckout(String db, long waitNanos, boolean acquired) {
        long now = System.nanoTime();
        long[] w = window;
        if (w == null || now - w[0] <= 0 || now - w[1] > 0) {
            return;
        }
        synchronized (this) {
            recorder.record(waitNanos);
        }
    }

    /** The waits recorded so far. */
    synchronized Latency latency() {
        return Latency.of(recorder);
    }
}

package dev.lanes.cli.bench;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The highest value a figure took, sampled periodically on a daemon thread while open: the most
 * descriptors the tenants had open, the most connections a soak's runtime held. It sees only the
 * moments it samples, so a peak shorter than the period can pass unseen.
 *
 * <h2>Concurrency</h2>
 * {@link #most} is the one shared field: the sampler thread raises it, {@link #most()} and
 * {@link #window()} read or exchange it from the caller's thread. The figure is read on both
 * threads, so it must be thread-safe.
 */
final class PeakSampler implements AutoCloseable {
    private final LongSupplier figure;
    private final AtomicLong most;
    private final ScheduledExecutorService sampler;

    /** Samples {@code figure} every {@code periodMillis} ms on a daemon thread {@code name}. */
    PeakSampler(String name, LongSupplier figure, long periodMillis) {
        this.figure = figure;
        this.most = new AtomicLong(figure.getAsLong());
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, periodMillis, periodMillis,
                TimeUnit.MILLISECONDS);
    }

    private void sample() {
        most.accumulateAndGet(figure.getAsLong(), Math::max);
    }

    /** The most since open (or the last {@link #window()}), sampling once more now. */
    long most() {
        sample();
        return most.get();
    }

    /**
     * The most since open or the previous call, sampling once more now; the next window starts
     * from the value seen now.
     */
    long window() {
        long now = figure.getAsLong();
        return Math.max(now, most.getAndSet(now));
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}

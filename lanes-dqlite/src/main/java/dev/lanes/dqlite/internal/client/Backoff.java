package dev.lanes.dqlite.internal.client;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Bounded exponential backoff with jitter: the pause after the {@code n}th failed round (from 0)
 * is drawn from [d/2, d], where d = min(max, base * 2^n). The jitter keeps clients that lost the
 * same leader from knocking on the next one in step. Immutable.
 */
public final class Backoff {
    private final long baseNanos;
    private final long maxNanos;
    private final DoubleSupplier random;

    /** @param random uniform in [0, 1) */
    public Backoff(Duration base, Duration max, DoubleSupplier random) {
        this.baseNanos = base.toNanos();
        this.maxNanos = max.toNanos();
        this.random = random;
    }

    /** The pause, in nanoseconds, after failed round {@code round} (0 for the first). */
    public long pauseNanos(int round) {
        long ceiling = baseNanos;
        for (int i = 0; i < round && ceiling < maxNanos; i++) {
            ceiling *= 2;
        }
        ceiling = Math.min(ceiling, maxNanos);
        long half = ceiling / 2;
        return half + (long) (random.getAsDouble() * (ceiling - half));
    }
}

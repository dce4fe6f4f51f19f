package dev.lanes.internal.util;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The runtime's time. Every timeout, deadline, idle check, queue-wait stamp and telemetry
 * duration reads it, and every timed wait of a caller (room in a write queue, a free reader)
 * waits through it, so that tests can run time on a manual clock that they advance themselves,
 * in milliseconds of their choosing, and never depend on how fast the machine is.
 *
 * <p>Readings are monotonic nanoseconds, like {@link System#nanoTime()}: only differences mean
 * anything. Implementations are thread-safe.
 */
public interface Clock {
    /** The system's monotonic clock; its waits are the condition's own. */
    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long awaitNanos(Lock lock, Condition condition, long nanos)
                throws InterruptedException {
            return condition.awaitNanos(nanos);
        }

        @Override
        public String toString() {
            return "Clock.SYSTEM";
        }
    };

    /** A monotonic reading in nanoseconds. */
    long nanoTime();

    /**
     * Waits on {@code condition}, whose {@code lock} the caller holds, for at most {@code nanos}
     * of this clock's time, as {@link Condition#awaitNanos(long)} does: it may return early
     * (signalled, or spuriously), so callers loop on their own condition, and it returns an
     * estimate of the time left, zero or less once the time has passed.
     */
    long awaitNanos(Lock lock, Condition condition, long nanos) throws InterruptedException;
}

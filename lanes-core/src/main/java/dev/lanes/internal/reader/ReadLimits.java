package dev.lanes.internal.reader;

import dev.lanes.ReadOptions;
import dev.lanes.internal.util.Clock;
import java.time.Duration;

/** A read's deadline, fixed at the call. Immutable. */
final class ReadLimits {
    static final ReadLimits NONE = new ReadLimits(false, 0, null);

    final boolean hasDeadline;
    final long deadline;
    final Duration timeout;

    private ReadLimits(boolean hasDeadline, long deadline, Duration timeout) {
        this.hasDeadline = hasDeadline;
        this.deadline = deadline;
        this.timeout = timeout;
    }

    static ReadLimits of(ReadOptions options, Clock clock) {
        if (options.timeout().isEmpty()) {
            return NONE;
        }
        Duration timeout = options.timeout().get();
        return new ReadLimits(true, clock.nanoTime() + nanos(timeout), timeout);
    }

    /** A duration in nanoseconds, saturating instead of overflowing for absurd values. */
    static long nanos(Duration d) {
        try {
            return Math.min(d.toNanos(), Long.MAX_VALUE / 4);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }

    long timeoutMillis() {
        return timeout == null ? 0 : timeout.toMillis();
    }
}

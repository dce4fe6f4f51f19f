package dev.lanes.internal.reader;

import dev.lanes.LanesException;
import dev.lanes.internal.util.Timer;
import java.util.concurrent.locks.Condition;

/**
 * One read waiting for a slot of the {@link ReaderSet}. Its final fields are set by the thread
 * that queues it; the fields marked "guarded by lock" are read and written only under the
 * set's lock.
 */
final class Waiter {
    final Condition condition; // sync waiters
    final AsyncAdmission callback; // async waiters
    final long enqueuedAt;
    /** When the wait ends: the checkout timeout, or the read's deadline if sooner. */
    final long end;
    final boolean deadlineFirst;
    // guarded by lock
    Lease lease;
    LanesException failure;
    Timer.Scheduled timeout;

    Waiter(Condition condition, AsyncAdmission callback, long enqueuedAt,
            long checkoutTimeoutNanos, boolean hasDeadline, long deadline) {
        this.enqueuedAt = enqueuedAt;
        this.condition = condition;
        this.callback = callback;
        long admissionEnd = enqueuedAt + checkoutTimeoutNanos;
        this.deadlineFirst = hasDeadline && deadline - admissionEnd < 0;
        this.end = deadlineFirst ? deadline : admissionEnd;
    }

    /** Stops the timer of an asynchronous wait that ends otherwise; guarded by lock. */
    void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel();
        }
    }
}

package dev.lanes.internal.writer;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.lanes.internal.util.Timer;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The query timeout of one statement of a pinned transaction (a data-source statement with {@code
 * setQueryTimeout}): when the statement outlives it, the timer stops it with {@code
 * sqlite3_interrupt} on the writer connection. SQLite then fails the statement; one that changes
 * rows inside the transaction ends the whole transaction, which the pinned transaction reports
 * rolled back. Either way the lane is free again, so a runaway statement cannot hold every other
 * writer of the database.
 *
 * <h2>Concurrency</h2>
 * Armed and disarmed by the lane's holder around the statement, fired on the timer's thread. The
 * lock makes the interrupt reach only the statement it was armed for: once {@link #disarm}
 * returned, a late timer task finds it disarmed and does nothing, so the next statement (a
 * {@code COMMIT}) is never interrupted. {@code sqlite3_interrupt} never blocks.
 */
final class StepDeadline {
    private final ReentrantLock lock = new ReentrantLock();
    private final WriterConnection connection;
    private final long timeoutNanos;
    private final Timer.Scheduled task;
    @GuardedBy("lock")
    private boolean armed = true;
    @GuardedBy("lock")
    private boolean fired;

    private StepDeadline(WriterConnection connection, long timeoutNanos, Timer timer) {
        this.connection = connection;
        this.timeoutNanos = timeoutNanos;
        Timer.Scheduled scheduled;
        try {
            scheduled = timer.schedule(this::fire, timeoutNanos);
        } catch (RejectedExecutionException e) {
            scheduled = null; // the runtime is shutting down, which ends the transaction
        }
        this.task = scheduled;
    }

    /** Arms the timeout of a statement about to run on {@code connection}; null for none. */
    static StepDeadline arm(WriterConnection connection, long timeoutNanos, Timer timer) {
        return timeoutNanos > 0 ? new StepDeadline(connection, timeoutNanos, timer) : null;
    }

    private void fire() {
        lock.lock();
        try {
            if (armed) {
                fired = true;
                connection.interrupt();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Disarms it once the statement returned; whether it stopped the statement. */
    boolean disarm() {
        if (task != null) {
            task.cancel();
        }
        lock.lock();
        try {
            armed = false;
            return fired;
        } finally {
            lock.unlock();
        }
    }

    /** What a statement that the timeout stopped failed with: its own failure, and the limit. */
    Exceeded exceeded(Throwable failure) {
        return new Exceeded(Duration.ofNanos(timeoutNanos), failure);
    }

    /** A statement stopped at its query timeout; {@link LaneTransaction#failure} names it. */
    static final class Exceeded extends Exception {
        private static final long serialVersionUID = 1L;

        Exceeded(Duration timeout, Throwable cause) {
            super("it ran past its query timeout of " + timeout.toMillis()
                    + " ms and was stopped", cause);
        }
    }
}

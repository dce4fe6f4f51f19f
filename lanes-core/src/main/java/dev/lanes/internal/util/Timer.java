package dev.lanes.internal.util;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs the runtime's deadlines on one thread of its own: idle checks, the idle timeout of an
 * interactive transaction, the end of a read's wait for a reader, the checkpointer's look at the
 * WAL, and stop requests to a running read ({@code sqlite3_interrupt}, which never blocks). A
 * timer task runs no other SQLite call and never blocks: it decides, and hands any work to the
 * pool. Times are in the nanoseconds of the runtime's {@link Clock}, so a manual clock drives a
 * manual timer in the tests.
 */
public interface Timer {
    /** A task that may still run; cancelling it is idempotent and never interrupts it. */
    interface Scheduled {
        void cancel();
    }

    /**
     * Runs {@code task} once, {@code delayNanos} from now.
     *
     * @throws RejectedExecutionException when the timer was shut down
     */
    Scheduled schedule(Runnable task, long delayNanos);

    /**
     * Runs {@code task} every {@code periodNanos}, first {@code periodNanos} from now, until it is
     * cancelled or the timer shuts down.
     *
     * @throws RejectedExecutionException when the timer was shut down
     */
    Scheduled scheduleWithFixedDelay(Runnable task, long periodNanos);

    /**
     * Runs {@code task} on the timer's thread soon.
     *
     * @throws RejectedExecutionException when the timer was shut down
     */
    void execute(Runnable task);

    /** Tasks scheduled and not yet run or cancelled; for tests and diagnostics. */
    int pending();

    /** Runs no task after the ones already running; idempotent. */
    void shutdown();

    /** The timer of a runtime on the system clock: one daemon thread named {@code name-timer}. */
    static Timer system(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name + "-timer");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        return new Timer() {
            @Override
            public Scheduled schedule(Runnable task, long delayNanos) {
                return of(executor.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS));
            }

            @Override
            public Scheduled scheduleWithFixedDelay(Runnable task, long periodNanos) {
                return of(executor.scheduleWithFixedDelay(task, periodNanos, periodNanos,
                        TimeUnit.NANOSECONDS));
            }

            @Override
            public void execute(Runnable task) {
                executor.execute(task);
            }

            @Override
            public int pending() {
                return executor.getQueue().size();
            }

            @Override
            public void shutdown() {
                executor.shutdown();
            }

            private Scheduled of(ScheduledFuture<?> future) {
                return () -> future.cancel(false);
            }
        };
    }
}

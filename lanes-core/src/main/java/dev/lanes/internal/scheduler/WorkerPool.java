package dev.lanes.internal.scheduler;

import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Threads;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bounded pool of plain platform threads shared by every database of a runtime.
 *
 * <p>Concurrency: every field below the lock is guarded by {@link #lock}. Work is a {@link
 * Task}, one database's serial queue; the pool never runs the same task on two threads at once
 * because a task is submitted only by the party that owns its "scheduled" state (see {@code
 * WriterLane}), and it is in at most one queue at a time.
 *
 * <p>Scheduling: a submitted task goes straight to an idle thread when there is one (a direct
 * hand-off, no queue). Otherwise it waits in one of two queues, and a new thread starts if the
 * cap allows. Threads start lazily and exit after {@link #KEEP_ALIVE} without work. Foreground
 * goes first, but while both queues hold work every {@link #BACKGROUND_TURN_EVERY}th pick takes
 * background work, so background always progresses.
 *
 * <p>Saturation: a stretch begins when work has to queue because no thread is free and none may
 * start, and ends when a thread finds no work. A stretch over {@link #SATURATION_WARNING} logs
 * one warning.
 */
public final class WorkerPool {
    private static final Logger log = LoggerFactory.getLogger(LogNames.POOL);

    /** Background work gets one pool turn in this many while foreground work waits. */
    static final int BACKGROUND_TURN_EVERY = 4;
    /** An idle thread exits after this long without work. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(60);
    /** Warn when work has waited behind a pool with no free thread for this long. */
    static final Duration SATURATION_WARNING = Duration.ofSeconds(1);

    /**
     * A serial queue of work: one turn runs at a time. A turn holds its thread while it runs:
     * a write turn for one group, a read for its body (bounded by the database's reader count),
     * so a slow body occupies a pool thread for its whole duration.
     */
    public interface Task {
        /** Runs one turn. Must not throw; the pool logs and survives anything that escapes. */
        void runTurn();

        /** Whether this turn belongs to the background class. */
        boolean background();
    }

    /** A task waiting for a thread, and since when (for the queue-wait gauge). */
    private record Queued(Task task, long since) {}

    private final String name;
    private final int maxThreads;
    private final long stackSize;
    private final Clock clock;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final ArrayDeque<Queued> foreground = new ArrayDeque<>();
    private final ArrayDeque<Queued> background = new ArrayDeque<>();
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    private int liveThreads;
    private int busyThreads;
    private int picks;
    private int threadSerial;
    private boolean shutdown;
    private long saturatedSince;
    private boolean saturationWarned;
    private long saturationStretches;
    private long longestQueueWaitNanos;

    public WorkerPool(String name, int maxThreads, long stackSize, Clock clock) {
        this.name = name;
        this.maxThreads = maxThreads;
        this.stackSize = stackSize;
        this.clock = clock;
    }

    /**
     * Runs {@code call} on a platform thread, where SQLite may run: on the caller's own thread
     * when it is one, else as a turn of this pool while the virtual caller waits (without
     * pinning its carrier, and uninterruptibly: the call may already be running). What the call
     * throws is rethrown as it was.
     *
     * @param background whether the turn belongs to the background class
     */
    public <T> T onPlatform(Callable<T> call, boolean background) throws Exception {
        if (!Threads.currentIsVirtual()) {
            return call.call();
        }
        CompletableFuture<T> done = new CompletableFuture<>();
        submit(new Task() {
            @Override
            public void runTurn() {
                try {
                    done.complete(call.call());
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            }

            @Override
            public boolean background() {
                return background;
            }
        });
        try {
            return done.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
    }

    /** Runs the task's turn on a pool thread, soon. */
    public void submit(Task task) {
        Worker spawn = null;
        lock.lock();
        try {
            if (shutdown) {
                // Threads are gone; a late turn (a close finishing) still has to run somewhere.
                startThread(new Worker(task), true);
                return;
            }
            Worker w = idle.pollFirst();
            if (w != null) {
                w.assigned = task;
                w.wakeUp.signal();
                return;
            }
            long now = clock.nanoTime();
            (task.background() ? background : foreground).addLast(new Queued(task, now));
            if (liveThreads < maxThreads) {
                liveThreads++;
                spawn = new Worker(null);
            } else {
                if (saturatedSince == 0) {
                    saturatedSince = now;
                    saturationWarned = false;
                }
                checkSaturation(now);
            }
        } finally {
            lock.unlock();
        }
        if (spawn != null) {
            startThread(spawn, false);
        }
    }

    // guarded by lock
    private void checkSaturation(long now) {
        if (saturatedSince != 0 && !saturationWarned
                && now - saturatedSince >= SATURATION_WARNING.toNanos()) {
            saturationWarned = true;
            saturationStretches++;
            log.warn("{}: all {} worker threads have been busy for {} ms while work waited "
                            + "({} foreground and {} background databases runnable); raise "
                            + "maxThreads or reduce the load",
                    name, liveThreads, TimeUnit.NANOSECONDS.toMillis(now - saturatedSince),
                    foreground.size(), background.size());
        }
    }

    // guarded by lock
    private Task poll() {
        Queued q;
        boolean fg = !foreground.isEmpty();
        boolean bg = !background.isEmpty();
        if (fg && bg) {
            picks++;
            q = picks % BACKGROUND_TURN_EVERY == 0 ? background.pollFirst() : foreground.pollFirst();
        } else if (fg) {
            q = foreground.pollFirst();
        } else if (bg) {
            q = background.pollFirst();
        } else {
            return null;
        }
        long now = clock.nanoTime();
        long waited = now - q.since();
        if (waited > longestQueueWaitNanos) {
            longestQueueWaitNanos = waited;
        }
        checkSaturation(now);
        return q.task();
    }

    private void startThread(Worker w, boolean oneShot) {
        int serial;
        lock.lock();
        try {
            serial = ++threadSerial;
        } finally {
            lock.unlock();
        }
        Thread t = new Thread(null, () -> w.run(oneShot), name + "-worker-" + serial, stackSize);
        t.setDaemon(true);
        w.thread = t;
        t.start();
    }

    private final class Worker {
        final Condition wakeUp = lock.newCondition();
        Task assigned;
        Thread thread;

        Worker(Task first) {
            this.assigned = first;
        }

        void run(boolean oneShot) {
            if (oneShot) {
                // Started after shutdown to finish one late turn; it belongs to no count.
                runSafely(assigned);
                return;
            }
            lock.lock();
            try {
                while (true) {
                    Task t = assigned;
                    assigned = null;
                    if (t == null) {
                        t = poll();
                    }
                    if (t == null) {
                        saturatedSince = 0;
                        if (shutdown || !awaitAssignment()) {
                            idle.remove(this);
                            if (assigned != null) {
                                continue; // handed work in the same instant it timed out
                            }
                            liveThreads--;
                            return;
                        }
                        continue;
                    }
                    busyThreads++;
                    lock.unlock();
                    try {
                        runSafely(t);
                    } finally {
                        lock.lock();
                        busyThreads--;
                    }
                }
            } finally {
                lock.unlock();
            }
        }

        /** Parks as idle until handed a task; false when the keep-alive ran out or on shutdown. */
        // guarded by lock
        private boolean awaitAssignment() {
            idle.addFirst(this); // LIFO: the most recently busy thread is the warmest
            long remaining = KEEP_ALIVE.toNanos();
            while (assigned == null && !shutdown) {
                if (remaining <= 0) {
                    return false;
                }
                try {
                    remaining = clock.awaitNanos(lock, wakeUp, remaining);
                } catch (InterruptedException e) {
                    // Pool threads are interrupted by no one but a careless body; stay alive.
                    Thread.interrupted();
                }
            }
            return assigned != null;
        }
    }

    private void runSafely(Task t) {
        try {
            t.runTurn();
        } catch (Throwable e) {
            // A turn contains its own failures; reaching here is a bug, but the thread goes on.
            log.error("{}: a turn escaped with an error; the worker thread continues", name, e);
        }
        Thread.interrupted(); // a body may have interrupted its own thread
    }

    /** Stops idle threads and lets busy ones exit after their turn. Queued work still runs. */
    public void shutdown() {
        lock.lock();
        try {
            shutdown = true;
            for (Worker w : idle) {
                w.wakeUp.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The most threads this pool runs. */
    public int maxThreads() {
        return maxThreads;
    }

    /** Threads alive now, threads busy, and runnable tasks per class, read together. */
    public Snapshot snapshot() {
        lock.lock();
        try {
            long now = clock.nanoTime();
            return new Snapshot(liveThreads, maxThreads, busyThreads, foreground.size(),
                    background.size(), Duration.ofNanos(longestQueueWaitNanos),
                    saturationStretches,
                    saturatedSince != 0 && now - saturatedSince >= SATURATION_WARNING.toNanos());
        } finally {
            lock.unlock();
        }
    }

    /** The pool's gauges at one instant. */
    public record Snapshot(int liveThreads, int maxThreads, int busyThreads,
            int runnableForeground, int runnableBackground, Duration longestQueueWait,
            long saturationStretches, boolean saturated) {}
}

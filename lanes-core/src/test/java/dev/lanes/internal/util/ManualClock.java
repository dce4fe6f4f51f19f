package dev.lanes.internal.util;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A clock the tests move themselves, and the timer that runs on it: time stands still until
 * {@link #advance(Duration)}, so a test about a timeout says how much time passes, and never
 * depends on how fast the machine is.
 *
 * <h2>What advance does</h2>
 * It moves time forward event by event, in order of due time: at each step time is set to the
 * event's moment, every {@link #awaitNanos} waiter whose deadline has come is signalled, and the
 * timer task due then runs, on the advancing thread (ties run in the order they were scheduled;
 * a task may schedule more, which run in the same advance if due by its end). A periodic task is
 * scheduled again {@code period} after it ran. A task that throws is not scheduled again, and
 * {@code advance} rethrows its failure once time reached the end, so that a defect in a timer
 * task fails the test that drove it. {@link #execute} tasks take no time: they run on a daemon
 * thread of the clock's own, soon, like the system timer's thread.
 *
 * <h2>Waiting on it</h2>
 * {@link #awaitNanos} registers the caller's lock, condition and deadline, then waits on the
 * condition with no timeout of its own: it returns when the caller's side signals the condition
 * (or spuriously), or when an advance passed the deadline. Signalling a condition needs its lock,
 * so an advance signals only after it released the clock's lock, never holding both.
 *
 * <h2>Concurrency</h2>
 * {@link #lock} guards {@link #tasks}, {@link #waiters}, {@link #sequence} and {@link #shutdown};
 * {@link #now} is written under it and read without it. It is held only to look and change,
 * never while a task runs or a condition is signalled, and a caller of {@link #awaitNanos} takes
 * it while holding its own lock (caller's lock, then this one; never the other way round).
 * {@link #advancing} serializes advances, so that two threads never run timer tasks at once.
 */
public final class ManualClock implements Clock, Timer {
    /** Where time starts: far from zero, which some code reads as "never". */
    private static final long START = TimeUnit.HOURS.toNanos(1);

    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock advancing = new ReentrantLock();
    private volatile long now = START;
    // guarded by lock
    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            (a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.seq, b.seq));
    private final List<Waiter> waiters = new ArrayList<>();
    private long sequence;
    private boolean shutdown;
    private ExecutorService executor;

    /** A timer task: once, or every {@link #period} after it ran. */
    private final class Task implements Scheduled {
        final Runnable body;
        final long period;
        long due;
        long seq;
        // guarded by lock
        boolean cancelled;

        Task(Runnable body, long due, long period) {
            this.body = body;
            this.due = due;
            this.period = period;
        }

        @Override
        public void cancel() {
            lock.lock();
            try {
                cancelled = true;
                tasks.remove(this);
            } finally {
                lock.unlock();
            }
        }
    }

    /** A thread in {@link #awaitNanos}. */
    private record Waiter(Lock lock, Condition condition, long deadline, Thread thread) {}

    @Override
    public long nanoTime() {
        return now;
    }

    /** How much time has passed on this clock since it was made. */
    public Duration elapsed() {
        return Duration.ofNanos(now - START);
    }

    /**
     * Moves time forward by {@code amount}, running the timer tasks that come due and waking the
     * waiters whose deadline passed, in the order of their moments; see the class comment.
     */
    public void advance(Duration amount) {
        long by = amount.toNanos();
        if (by < 0) {
            throw new IllegalArgumentException("time only moves forward, not by " + amount);
        }
        advancing.lock();
        try {
            long target = now + by;
            RuntimeException failure = null;
            while (true) {
                List<Waiter> due;
                Task task;
                lock.lock();
                try {
                    long next = nextEvent();
                    boolean last = next - target > 0;
                    now = last ? target : Math.max(now, next);
                    due = takeDueWaiters();
                    task = last ? null : takeDueTask();
                    if (last && due.isEmpty()) {
                        break;
                    }
                } finally {
                    lock.unlock();
                }
                signal(due);
                if (task != null) {
                    RuntimeException f = run(task);
                    if (failure == null) {
                        failure = f;
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            advancing.unlock();
        }
    }

    /** The moment of the next task or deadline; {@code Long.MAX_VALUE} past now when none. */
    // guarded by lock
    private long nextEvent() {
        long next = now + Long.MAX_VALUE / 2;
        Task head = tasks.peek();
        if (head != null && head.due - next < 0) {
            next = head.due;
        }
        for (Waiter w : waiters) {
            if (w.deadline - next < 0) {
                next = w.deadline;
            }
        }
        return next;
    }

    // guarded by lock: the due waiters leave the registry, so that each is signalled once
    private List<Waiter> takeDueWaiters() {
        List<Waiter> due = new ArrayList<>();
        waiters.removeIf(w -> {
            if (w.deadline - now <= 0) {
                due.add(w);
                return true;
            }
            return false;
        });
        return due;
    }

    // guarded by lock
    private Task takeDueTask() {
        Task head = tasks.peek();
        if (head == null || head.due - now > 0) {
            return null;
        }
        return tasks.poll();
    }

    /** Wakes every thread waiting on each condition: an extra one just sees a spurious return. */
    private static void signal(List<Waiter> due) {
        for (Waiter w : due) {
            w.lock.lock();
            try {
                w.condition.signalAll();
            } finally {
                w.lock.unlock();
            }
        }
    }

    /** Runs a due task and schedules a periodic one again; its failure, or null. */
    private RuntimeException run(Task task) {
        try {
            task.body.run();
        } catch (RuntimeException | Error e) {
            return new IllegalStateException("a timer task failed at " + elapsed(), e);
        }
        if (task.period > 0) {
            lock.lock();
            try {
                if (!task.cancelled && !shutdown) {
                    task.due = now + task.period;
                    task.seq = sequence++;
                    tasks.add(task);
                }
            } finally {
                lock.unlock();
            }
        }
        return null;
    }

    @Override
    public long awaitNanos(Lock callerLock, Condition condition, long nanos)
            throws InterruptedException {
        if (nanos <= 0) {
            return nanos;
        }
        Waiter w;
        lock.lock();
        try {
            w = new Waiter(callerLock, condition, now + nanos, Thread.currentThread());
            waiters.add(w);
        } finally {
            lock.unlock();
        }
        try {
            condition.await(); // the caller's lock is held, so no advance can signal before this
        } finally {
            lock.lock();
            try {
                waiters.remove(w);
            } finally {
                lock.unlock();
            }
        }
        return w.deadline - now;
    }

    /** Whether {@code thread} is inside {@link #awaitNanos} now, waiting for time or a signal. */
    public boolean isWaiting(Thread thread) {
        lock.lock();
        try {
            for (Waiter w : waiters) {
                if (w.thread == thread) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Scheduled schedule(Runnable task, long delayNanos) {
        return add(task, Math.max(0, delayNanos), 0);
    }

    @Override
    public Scheduled scheduleWithFixedDelay(Runnable task, long periodNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive, was " + periodNanos);
        }
        return add(task, periodNanos, periodNanos);
    }

    private Scheduled add(Runnable body, long delayNanos, long period) {
        Objects.requireNonNull(body, "task");
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("the manual timer was shut down");
            }
            Task t = new Task(body, now + delayNanos, period);
            t.seq = sequence++;
            tasks.add(t);
            return t;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        ExecutorService e;
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("the manual timer was shut down");
            }
            if (executor == null) {
                executor = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "manual-timer");
                    t.setDaemon(true);
                    return t;
                });
            }
            e = executor;
        } finally {
            lock.unlock();
        }
        e.execute(task);
    }

    @Override
    public int pending() {
        lock.lock();
        try {
            return tasks.size();
        } finally {
            lock.unlock();
        }
    }

    /** Drops every pending task; later ones are refused. Waiters still wake as time passes. */
    @Override
    public void shutdown() {
        ExecutorService e;
        lock.lock();
        try {
            shutdown = true;
            tasks.clear();
            e = executor;
        } finally {
            lock.unlock();
        }
        if (e != null) {
            e.shutdown();
        }
    }

    @Override
    public String toString() {
        return "ManualClock[" + elapsed() + ", " + pending() + " pending]";
    }
}

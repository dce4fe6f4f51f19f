package dev.lanes.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.lanes.MetricsListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A metrics listener that records what the runtime tells it, for the tests of this package:
 * each {@link #requestStarted} returns a fresh token, so a test can follow one request to its
 * {@link #requestCompleted}. Thread-safe; nothing here waits for the runtime but {@link
 * #await}, which is bounded.
 */
final class Recording implements MetricsListener {
    /** The bound on every wait of these tests. */
    static final Duration WAIT = Duration.ofSeconds(30);

    record Started(Token token, String db, Operation operation, String label, Thread thread) {}

    record Completed(Object started, String db, Operation operation, String label,
            Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {}

    record Checkpoint(String db, CheckpointType type, CheckpointTrigger trigger, long nanos,
            int walFrames, int checkpointedFrames, boolean busy, boolean failed) {}

    record Checkout(String db, long waitNanos, boolean acquired, Thread thread) {}

    record Event(String db, long value, long other) {}

    /** What a requestStarted returned: one per request, told apart by identity. */
    static final class Token {
        final int number;

        Token(int number) {
            this.number = number;
        }

        @Override
        public String toString() {
            return "request#" + number;
        }
    }

    final List<Started> started = new CopyOnWriteArrayList<>();
    final List<Completed> completed = new CopyOnWriteArrayList<>();
    final List<Checkpoint> checkpoints = new CopyOnWriteArrayList<>();
    final List<Checkout> checkouts = new CopyOnWriteArrayList<>();
    final List<Event> evictions = new CopyOnWriteArrayList<>();
    final List<Event> reopens = new CopyOnWriteArrayList<>();
    final List<Event> floorRefusals = new CopyOnWriteArrayList<>();
    final List<Event> changeLags = new CopyOnWriteArrayList<>();
    final Map<String, DatabaseGauges> gauges = new ConcurrentHashMap<>();
    final AtomicReference<PoolGauges> pool = new AtomicReference<>();

    @Override
    public void runtimeStarted(PoolGauges gauges) {
        pool.set(gauges);
    }

    @Override
    public void databaseOpened(String db, DatabaseGauges gauges) {
        this.gauges.put(db, gauges);
    }

    @Override
    public Object requestStarted(String db, Operation operation, String label) {
        Token token = new Token(started.size());
        started.add(new Started(token, db, operation, label, Thread.currentThread()));
        return token;
    }

    @Override
    public void requestCompleted(Object started, String db, Operation operation, String label,
            Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {
        completed.add(new Completed(started, db, operation, label, outcome, failure, replayed,
                groupSize, queueWaitNanos, totalNanos));
    }

    @Override
    public void checkpoint(String db, CheckpointType type, CheckpointTrigger trigger, long nanos,
            int walFrames, int checkpointedFrames, boolean busy, boolean failed) {
        checkpoints.add(new Checkpoint(db, type, trigger, nanos, walFrames, checkpointedFrames,
                busy, failed));
    }

    @Override
    public void readerCheckout(String db, long waitNanos, boolean acquired) {
        checkouts.add(new Checkout(db, waitNanos, acquired, Thread.currentThread()));
    }

    @Override
    public void connectionsEvicted(String db, int connections) {
        evictions.add(new Event(db, connections, 0));
    }

    @Override
    public void connectionReopened(String db, long nanos) {
        reopens.add(new Event(db, nanos, 0));
    }

    @Override
    public void diskFloorRefused(String db, long freeBytes, long floorBytes) {
        floorRefusals.add(new Event(db, freeBytes, floorBytes));
    }

    @Override
    public void changeDelivered(String db, long lagNanos) {
        changeLags.add(new Event(db, lagNanos, 0));
    }

    // ------------------------------------------------------------------ reading it

    /** The request this thread started last. */
    Started lastStartedHere() {
        Thread me = Thread.currentThread();
        for (int i = started.size() - 1; i >= 0; i--) {
            if (started.get(i).thread() == me) {
                return started.get(i);
            }
        }
        throw new AssertionError("no request was started on " + me.getName());
    }

    /** The completions of {@code token}'s request so far. */
    List<Completed> completionsOf(Token token) {
        return completed.stream().filter(c -> c.started() == token).collect(Collectors.toList());
    }

    /** The one completion of {@code token}'s request; fails when there is none or several. */
    Completed completionOf(Token token) {
        List<Completed> of = completionsOf(token);
        assertThat(of).as("completions of %s", token).hasSize(1);
        return of.get(0);
    }

    /** The one completion of the request this thread started last. */
    Completed lastCompletedHere() {
        return completionOf(lastStartedHere().token());
    }

    /**
     * Every request started was completed exactly once, and nothing was completed that was not
     * started; completions name the same database, operation and label as their start.
     */
    void assertBalanced() {
        for (Started s : started) {
            Completed c = completionOf(s.token());
            assertThat(c.db()).as("%s's database", s.token()).isEqualTo(s.db());
            assertThat(c.operation()).as("%s's operation", s.token()).isEqualTo(s.operation());
            assertThat(c.label()).as("%s's label", s.token()).isEqualTo(s.label());
        }
        assertThat(completed).as("completions").hasSameSizeAs(started);
    }

    /**
     * A body (for a write or a read) that holds its connection: it counts {@code running} down,
     * then waits, bounded, for {@code release}.
     */
    static dev.lanes.SqlFunction<Boolean> holding(java.util.concurrent.CountDownLatch running,
            java.util.concurrent.CountDownLatch release) {
        return c -> {
            running.countDown();
            return release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        };
    }

    /** Waits, bounded, until {@code condition} holds. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}

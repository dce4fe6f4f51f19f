package dev.lanes.internal.reader;

import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.AdmissionTimeoutException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.TestLanes;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.DatabaseOptions;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Admission to the readers of one database ({@link ReaderSet}), without SQLite: leases are taken
 * and given back without a connection ever opening. On a manual clock, so that a wait ends when
 * the test says its time has passed. Threads parked in a synchronous admission are seen waiting
 * on the clock; asynchronous ones are told through their callback.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderSetTest {
    private static final Duration CHECKOUT = Duration.ofMillis(100);

    private final ManualClock clock = new ManualClock();
    private final WorkerPool pool = new WorkerPool("readers", 2, 256 * 1024, clock);

    @AfterEach
    void stop() {
        pool.shutdown();
        clock.shutdown();
    }

    private ReaderSet readers(int capacity) {
        return new ReaderSet("r.db", Path.of("r.db"), DatabaseOptions.builder().readers(capacity)
                .readerCheckoutTimeout(CHECKOUT).busyTimeout(Duration.ofSeconds(5))
                .statementCacheSize(0).build(), null, MetricsReporter.NONE, () -> {},
                new ConnectionBudget(0), pool, clock, clock);
    }

    /** An asynchronous admission: its lease or its refusal. */
    private static final class Async implements AsyncAdmission {
        final String name;
        final List<String> log;
        final CompletableFuture<Lease> lease = new CompletableFuture<>();

        Async(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public void granted(Lease l) {
            log.add(name + " granted");
            lease.complete(l);
        }

        @Override
        public void refused(LanesException failure) {
            log.add(name + " refused");
            lease.completeExceptionally(failure);
        }
    }

    /** A thread in a synchronous admission; {@link #lease} or {@link #failure} once it ends. */
    private final class Sync {
        final AtomicReference<Lease> lease = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread thread;

        Sync(ReaderSet set, String name, List<String> log, boolean hasDeadline, long deadline) {
            thread = new Thread(() -> {
                try {
                    lease.set(set.acquire(hasDeadline, deadline));
                    log.add(name + " granted");
                } catch (Throwable t) {
                    failure.set(t);
                    log.add(name + " refused");
                }
            }, name);
            thread.start();
            awaitTrue(name + " to wait on the clock", () -> clock.isWaiting(thread));
        }

        Sync(ReaderSet set, String name, List<String> log) {
            this(set, name, log, false, 0);
        }

        void join() throws InterruptedException {
            thread.join(TestLanes.WAIT.toMillis());
            assertThat(thread.isAlive()).as("%s ended", thread.getName()).isFalse();
        }
    }

    private static LanesException refusal(Async a) {
        Throwable t = catchThrowable(() -> a.lease.join());
        assertThat(t).isNotNull();
        return (LanesException) t.getCause();
    }

    @Test
    void freeReadersAreTakenAtOnceAndNoMoreThanTheCapacityAreOut() {
        ReaderSet set = readers(2);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease first = set.acquire(false, 0);
        Lease second = set.acquire(false, 0);
        assertThat(set.diagnostics().currentCheckouts()).isEqualTo(2);
        Async third = new Async("third", log);
        assertThat(set.acquireAsync(false, 0, third)).as("queued: both readers are out")
                .isNotNull();
        assertThat(set.diagnostics().waiting()).isEqualTo(1);

        set.release(first, true);
        assertThat(log).containsExactly("third granted");
        assertThat(set.diagnostics().currentCheckouts()).isEqualTo(2);
        set.release(second, true);
        set.release(third.lease.join(), true);
        assertThat(set.diagnostics().currentCheckouts()).isZero();
        assertThat(set.diagnostics().peakCheckouts()).isEqualTo(2);
        assertThat(set.diagnostics().acquisitions()).isEqualTo(3);
    }

    @Test
    void aFreedReaderGoesToTheWaitersInArrivalOrderSyncAndAsyncAlike() throws Exception {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Async one = new Async("one", log);
        assertThat(set.acquireAsync(false, 0, one)).isNotNull();
        Sync two = new Sync(set, "two", log);
        Async three = new Async("three", log);
        assertThat(set.acquireAsync(false, 0, three)).isNotNull();
        assertThat(set.diagnostics().waiting()).isEqualTo(3);

        set.release(held, true);
        set.release(one.lease.join(), true);
        two.join();
        set.release(two.lease.get(), true);
        set.release(three.lease.join(), true);

        assertThat(log).containsExactly("one granted", "two granted", "three granted");
        assertThat(set.diagnostics().waiting()).isZero();
    }

    @Test
    void aReaderFreedWhileAThreadWaitsIsItsBeforeItWakesSoANewcomerCannotBarge()
            throws Exception {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Sync waiting = new Sync(set, "waiting", log);

        set.release(held, true); // hands the reader to the waiter, asleep or not
        Async newcomer = new Async("newcomer", log);
        assertThat(set.acquireAsync(false, 0, newcomer)).as("the newcomer queues").isNotNull();
        waiting.join();
        assertThat(waiting.lease.get()).isNotNull();
        assertThat(newcomer.lease).isNotDone();

        set.release(waiting.lease.get(), true);
        assertThat(newcomer.lease.join()).isNotNull();
        assertThat(log).containsExactly("waiting granted", "newcomer granted");
    }

    @Test
    void waitsEndAtTheCheckoutTimeoutInArrivalOrderAndNotBefore() throws Exception {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Async one = new Async("one", log);
        set.acquireAsync(false, 0, one);
        Sync two = new Sync(set, "two", log);
        Async three = new Async("three", log);
        set.acquireAsync(false, 0, three);

        clock.advance(CHECKOUT.minusMillis(1));
        assertThat(log).isEmpty();
        assertThat(clock.isWaiting(two.thread)).isTrue();
        assertThat(set.diagnostics().waiting()).isEqualTo(3);

        clock.advance(Duration.ofMillis(1));
        two.join();
        awaitTrue("both asynchronous refusals", () -> one.lease.isDone() && three.lease.isDone());
        assertThat(log.stream().filter(e -> !e.startsWith("two")))
                .as("told in the order they arrived").containsExactly("one refused",
                        "three refused");
        for (Throwable t : List.of(refusal(one), two.failure.get(), refusal(three))) {
            assertThat(t).isInstanceOf(AdmissionTimeoutException.class)
                    .hasMessageContaining("no reader became free within 100 ms (waited 100 ms");
            assertThat(((LanesException) t).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        }
        assertThat(refusal(one).getMessage()).contains("2 other reads waiting");
        assertThat(set.diagnostics().checkoutTimeouts()).isEqualTo(3);
        assertThat(set.diagnostics().waiting()).isZero();
        assertThat(clock.pending()).as("no timeout left scheduled").isZero();

        set.release(held, true);
        assertThat(set.diagnostics().availableSlots()).isEqualTo(1);
    }

    @Test
    void aReadsOwnEarlierDeadlineEndsItsWaitFirstWithDeadlineExceeded() throws Exception {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Async patient = new Async("patient", log);
        set.acquireAsync(false, 0, patient);
        Async hurried = new Async("hurried", log);
        set.acquireAsync(true, clock.nanoTime() + Duration.ofMillis(30).toNanos(), hurried);
        Sync hurriedThread = new Sync(set, "hurried-thread", log, true,
                clock.nanoTime() + Duration.ofMillis(30).toNanos());

        clock.advance(Duration.ofMillis(30));
        hurriedThread.join();
        awaitTrue("the hurried read's refusal", () -> hurried.lease.isDone());
        assertThat(refusal(hurried)).isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("deadline passed after waiting 30 ms");
        assertThat(hurriedThread.failure.get()).isInstanceOf(DeadlineExceededException.class);
        assertThat(patient.lease).as("its own timeout has not come").isNotDone();
        assertThat(set.diagnostics().deadlinesExceeded()).isEqualTo(2);

        set.release(held, true);
        assertThat(patient.lease.join()).isNotNull();
        set.release(patient.lease.join(), true);
    }

    @Test
    void aCancelledWaitLeavesTheQueueAndIsNeverGranted() {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Async cancelled = new Async("cancelled", log);
        Waiter w = set.acquireAsync(false, 0, cancelled);
        Async next = new Async("next", log);
        set.acquireAsync(false, 0, next);

        assertThat(set.cancelWaiting(w)).isTrue();
        assertThat(set.cancelWaiting(w)).as("only once").isFalse();
        assertThat(set.diagnostics().waiting()).isEqualTo(1);
        set.release(held, true);
        clock.advance(CHECKOUT); // its timeout was cancelled with it
        assertThat(log).containsExactly("next granted");
        assertThat(set.diagnostics().cancellations()).isEqualTo(1);
        set.release(next.lease.join(), true);
    }

    @Test
    void aDrainingCloseServesTheReadsAlreadyWaitingRefusesNewOnesAndEndsWhenAllAreBack() {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Async waiting = new Async("waiting", log);
        set.acquireAsync(false, 0, waiting);

        CompletableFuture<Void> closed = set.beginClose(true);
        assertThat(catchThrowable(() -> set.acquire(false, 0)))
                .isInstanceOf(ClosingException.class);
        assertThat(catchThrowable(() -> set.acquireAsync(false, 0, new Async("late", log))))
                .isInstanceOf(ClosingException.class);
        assertThat(closed).isNotDone();

        set.release(held, true);
        assertThat(waiting.lease.join()).as("a read accepted before the close still runs")
                .isNotNull();
        assertThat(closed).as("its lease is still out").isNotDone();
        set.release(waiting.lease.join(), true);

        assertThat(closed).isDone();
        assertThat(set.isClosed()).isTrue();
        assertThat(set.beginClose(true)).as("idempotent").isSameAs(closed);
        assertThat(catchThrowable(() -> set.acquire(false, 0)))
                .isInstanceOf(ClosedException.class);
        assertThat(log).containsExactly("waiting granted");
    }

    @Test
    void aCloseThatDoesNotDrainRefusesTheWaitingReadsAtOnce() throws Exception {
        ReaderSet set = readers(1);
        List<String> log = new CopyOnWriteArrayList<>();
        Lease held = set.acquire(false, 0);
        Async waiting = new Async("waiting", log);
        set.acquireAsync(false, 0, waiting);
        Sync parked = new Sync(set, "parked", log);

        CompletableFuture<Void> closed = set.beginClose(false);
        parked.join();
        assertThat(refusal(waiting)).isInstanceOf(ClosedException.class)
                .extracting(LanesException::outcome).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(parked.failure.get()).isInstanceOf(ClosedException.class);
        assertThat(closed).as("the read in flight still holds its reader").isNotDone();
        set.release(held, true);
        assertThat(closed).isDone();
        assertThat(clock.pending()).isZero();
    }
}

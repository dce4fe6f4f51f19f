package dev.lanes.internal.util;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.TestLanes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The tests' manual clock: time moves only when advanced, and tasks and waiters follow it. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ManualClockTest {
    private static final long MS = 1_000_000;

    private final ManualClock clock = new ManualClock();

    @Test
    void timeStandsStillUntilAdvancedAndThenMovesByExactlyTheAmount() {
        long start = clock.nanoTime();
        assertThat(clock.nanoTime()).isEqualTo(start);
        clock.advance(Duration.ofMillis(5));
        assertThat(clock.nanoTime() - start).isEqualTo(5 * MS);
        clock.advance(Duration.ZERO);
        assertThat(clock.elapsed()).isEqualTo(Duration.ofMillis(5));
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("forward");
    }

    @Test
    void advanceRunsTheDueTasksInOrderOnTheAdvancingThreadEachAtItsOwnMoment() {
        long start = clock.nanoTime();
        List<String> ran = new CopyOnWriteArrayList<>();
        List<Long> at = new CopyOnWriteArrayList<>();
        AtomicReference<Thread> on = new AtomicReference<>();
        clock.schedule(record("c", ran, at, start), 30 * MS);
        clock.schedule(record("a", ran, at, start), 10 * MS);
        clock.schedule(() -> {
            on.set(Thread.currentThread());
            record("b", ran, at, start).run();
        }, 10 * MS);
        clock.schedule(record("d", ran, at, start), 50 * MS);
        assertThat(clock.pending()).isEqualTo(4);

        clock.advance(Duration.ofMillis(40));

        assertThat(ran).as("due by 40 ms; ties in the order scheduled").containsExactly("a", "b",
                "c");
        assertThat(at).containsExactly(10L, 10L, 30L);
        assertThat(on.get()).isSameAs(Thread.currentThread());
        assertThat(clock.pending()).isEqualTo(1);
        assertThat(clock.elapsed()).isEqualTo(Duration.ofMillis(40));

        clock.advance(Duration.ofMillis(10));
        assertThat(ran).containsExactly("a", "b", "c", "d");
        assertThat(at).endsWith(50L);
        assertThat(clock.pending()).isZero();
    }

    @Test
    void aTaskScheduledByATaskRunsInTheSameAdvanceWhenItIsDueByItsEnd() {
        long start = clock.nanoTime();
        List<String> ran = new CopyOnWriteArrayList<>();
        List<Long> at = new CopyOnWriteArrayList<>();
        clock.schedule(() -> {
            record("first", ran, at, start).run();
            clock.schedule(record("inner", ran, at, start), 5 * MS);
            clock.schedule(record("later", ran, at, start), 50 * MS);
        }, 10 * MS);
        clock.advance(Duration.ofMillis(20));
        assertThat(ran).containsExactly("first", "inner");
        assertThat(at).containsExactly(10L, 15L);
        assertThat(clock.pending()).isEqualTo(1);
    }

    @Test
    void aCancelledTaskNeverRunsAndCancellingTwiceIsHarmless() {
        List<String> ran = new CopyOnWriteArrayList<>();
        Timer.Scheduled s = clock.schedule(() -> ran.add("cancelled"), 10 * MS);
        clock.schedule(() -> ran.add("kept"), 10 * MS);
        s.cancel();
        s.cancel();
        assertThat(clock.pending()).isEqualTo(1);
        clock.advance(Duration.ofMillis(10));
        assertThat(ran).containsExactly("kept");
    }

    @Test
    void aPeriodicTaskRunsOncePerPeriodUntilCancelled() {
        long start = clock.nanoTime();
        List<String> ran = new CopyOnWriteArrayList<>();
        List<Long> at = new CopyOnWriteArrayList<>();
        Timer.Scheduled s = clock.scheduleWithFixedDelay(record("tick", ran, at, start), 10 * MS);
        clock.advance(Duration.ofMillis(35));
        assertThat(at).containsExactly(10L, 20L, 30L);
        assertThat(clock.pending()).as("a periodic task counts once").isEqualTo(1);
        s.cancel();
        clock.advance(Duration.ofMillis(100));
        assertThat(at).hasSize(3);
        assertThat(clock.pending()).isZero();
        assertThatThrownBy(() -> clock.scheduleWithFixedDelay(() -> {}, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailingTaskFailsTheAdvanceOnceTimeReachedItsEndAndAPeriodicOneStops() {
        List<String> ran = new CopyOnWriteArrayList<>();
        clock.scheduleWithFixedDelay(() -> {
            ran.add("failing");
            throw new IllegalArgumentException("boom");
        }, 10 * MS);
        clock.schedule(() -> ran.add("after"), 20 * MS);

        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(30)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("timer task failed")
                .hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThat(ran).as("the failing task ran once; the next task still ran")
                .containsExactly("failing", "after");
        assertThat(clock.elapsed()).isEqualTo(Duration.ofMillis(30));
        assertThat(clock.pending()).isZero();
    }

    @Test
    void aWaiterReturnsWhenAnAdvancePassesItsDeadlineAndNotBefore() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        Condition condition = lock.newCondition();
        AtomicLong left = new AtomicLong(Long.MIN_VALUE);
        Thread waiter = waitOnce(lock, condition, 100 * MS, left);
        awaitTrue("the waiter to wait on the clock", () -> clock.isWaiting(waiter));

        clock.advance(Duration.ofMillis(99));
        assertThat(clock.isWaiting(waiter)).as("1 ms before its deadline").isTrue();
        assertThat(left.get()).isEqualTo(Long.MIN_VALUE);

        clock.advance(Duration.ofMillis(1));
        waiter.join(TestLanes.WAIT.toMillis());
        assertThat(waiter.isAlive()).isFalse();
        assertThat(left.get()).as("time left once the deadline passed").isZero();
        assertThat(clock.isWaiting(waiter)).isFalse();
    }

    @Test
    void aWaiterSignalledBeforeItsDeadlineReturnsTheTimeLeft() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        Condition condition = lock.newCondition();
        AtomicLong left = new AtomicLong(Long.MIN_VALUE);
        Thread waiter = waitOnce(lock, condition, 100 * MS, left);
        awaitTrue("the waiter to wait on the clock", () -> clock.isWaiting(waiter));
        clock.advance(Duration.ofMillis(30));

        lock.lock();
        try {
            condition.signal();
        } finally {
            lock.unlock();
        }
        waiter.join(TestLanes.WAIT.toMillis());
        assertThat(waiter.isAlive()).isFalse();
        assertThat(left.get()).isEqualTo(70 * MS);
    }

    @Test
    void aWaitWithNoTimeLeftReturnsAtOnce() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        lock.lock();
        try {
            assertThat(clock.awaitNanos(lock, lock.newCondition(), 0)).isZero();
            assertThat(clock.awaitNanos(lock, lock.newCondition(), -5)).isEqualTo(-5);
        } finally {
            lock.unlock();
        }
    }

    @Test
    void anInterruptedWaiterThrowsAndNoLongerWaits() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        Condition condition = lock.newCondition();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            lock.lock();
            try {
                clock.awaitNanos(lock, condition, 100 * MS);
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                lock.unlock();
            }
        }, "interrupted-waiter");
        waiter.start();
        awaitTrue("the waiter to wait on the clock", () -> clock.isWaiting(waiter));
        waiter.interrupt();
        waiter.join(TestLanes.WAIT.toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(clock.isWaiting(waiter)).isFalse();
    }

    @Test
    void shutdownDropsPendingTasksAndRefusesNewOnes() {
        List<String> ran = new CopyOnWriteArrayList<>();
        clock.schedule(() -> ran.add("dropped"), 10 * MS);
        clock.shutdown();
        assertThat(clock.pending()).isZero();
        clock.advance(Duration.ofMillis(20));
        assertThat(ran).isEmpty();
        assertThatThrownBy(() -> clock.schedule(() -> {}, MS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> clock.scheduleWithFixedDelay(() -> {}, MS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> clock.execute(() -> {}))
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void executeRunsTheTaskSoonOnAnotherThreadWithoutTimePassing() {
        long start = clock.nanoTime();
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Thread> on = new AtomicReference<>();
        AtomicLong at = new AtomicLong();
        clock.execute(() -> {
            on.set(Thread.currentThread());
            at.set(clock.nanoTime());
            ran.countDown();
        });
        await(ran, "the executed task");
        assertThat(on.get()).isNotSameAs(Thread.currentThread());
        assertThat(on.get().isDaemon()).isTrue();
        assertThat(at.get()).isEqualTo(start);
        clock.shutdown();
    }

    private Runnable record(String name, List<String> ran, List<Long> at, long start) {
        return () -> {
            ran.add(name);
            at.add((clock.nanoTime() - start) / MS);
        };
    }

    /** Starts a thread that waits once on the clock for {@code nanos}; {@code left} its answer. */
    private Thread waitOnce(ReentrantLock lock, Condition condition, long nanos, AtomicLong left) {
        Thread t = new Thread(() -> {
            lock.lock();
            try {
                left.set(clock.awaitNanos(lock, condition, nanos));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }, "clock-waiter");
        t.start();
        return t;
    }
}

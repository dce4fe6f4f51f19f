package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bounded write queue refuses work explicitly, and a write waiting for room is admitted once
 * there is room. (The enqueue deadline itself: {@code internal.writer.EnqueueTimeoutTest}, on a
 * manual clock.)
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AdmissionTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("small.db",
                DatabaseOptions.builder().writeQueueCapacity(2)
                .writeQueueTimeout(Duration.ZERO).build());
    }

    @Test
    void aWriteToAFullQueueFailsAtOnceWithOverloadedAndNeverRuns() {
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));

            OverloadedException sync = catchThrowableOfType(OverloadedException.class,
                    () -> db.write(insert("refused-sync")));
            OverloadedException async = catchThrowableOfType(OverloadedException.class,
                    () -> db.writeAsync(insert("refused-async")));

            for (OverloadedException e : new OverloadedException[] {sync, async}) {
                assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
                assertThat(e.code()).isEqualTo(ErrorCode.OVERLOADED);
                assertThat(e.retryable()).isTrue();
                assertThat(e.getMessage()).contains("writeQueueCapacity");
            }
            assertThat(db.diagnostics().writer().counters().overloads()).isEqualTo(2);
            assertThat(db.diagnostics().writer().queued()).isEqualTo(2);

            blocker.release();
            assertThat(join(q1)).isEqualTo("q1");
            assertThat(join(q2)).isEqualTo("q2");
        }
        assertThat(countOf(db, "refused-sync")).isZero();
        assertThat(countOf(db, "refused-async")).isZero();
    }

    @Test
    void aWriteWaitingForRoomIsAdmittedWhenRoomIsMadeAndCommits() throws Exception {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter;
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            waiter = new Thread(() -> {
                try {
                    outcome.set(db.write(WriteOptions.enqueueTimeout(TestLanes.WAIT),
                            insert("patient")));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }, "patient-writer");
            waiter.start();
            // Parked with a deadline: it is inside the wait for room, not yet admitted.
            TestLanes.awaitParked(waiter, Thread.State.TIMED_WAITING);
            assertThat(db.diagnostics().writer().queued()).isEqualTo(2);

            blocker.release();
            join(q1);
            join(q2);
        }
        waiter.join(TestLanes.WAIT.toMillis());
        assertThat(waiter.isAlive()).isFalse();
        assertThat(outcome.get()).isEqualTo("patient");
        assertThat(countOf(db, "patient")).isEqualTo(1);
        assertThat(db.diagnostics().writer().counters().overloads()).isZero();
    }

    @Test
    void aWriteInterruptedWhileWaitingForRoomFailsCancelledAndNeverRuns() throws Exception {
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
        Thread waiter;
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));
            waiter = new Thread(() -> {
                try {
                    outcome.set(db.write(WriteOptions.enqueueTimeout(TestLanes.WAIT), c -> {
                        ran.set(true);
                        return null;
                    }));
                } catch (Throwable t) {
                    outcome.set(t);
                }
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }, "interrupted-writer");
            waiter.start();
            TestLanes.awaitParked(waiter, Thread.State.TIMED_WAITING);
            waiter.interrupt();
            waiter.join(TestLanes.WAIT.toMillis());
            blocker.release();
            join(q1);
            join(q2);
        }
        assertThat(outcome.get()).isInstanceOf(CancelledException.class);
        assertThat(((LanesException) outcome.get()).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(stillInterrupted.get()).as("the interrupt status is kept").isTrue();
        assertThat(ran).isFalse();
    }
}

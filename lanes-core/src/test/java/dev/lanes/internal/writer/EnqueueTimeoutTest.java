package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.ErrorCode;
import dev.lanes.QueueFullException;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An enqueue deadline covers admission only: a write waits for room at most its enqueue timeout
 * and then fails {@code QueueFullException}, while a write already accepted is never failed for
 * waiting longer than its deadline. On a manual clock, so that "longer than the deadline" is an
 * amount the test chooses, not a sleep.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EnqueueTimeoutTest {
    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("small.db",
                DatabaseOptions.builder().writeQueueCapacity(2).build());
    }

    @Test
    void aWriteWithAnEnqueueTimeoutWaitsForRoomThenFailsWithQueueFull() throws Exception {
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> q1 = db.writeAsync(insert("q1"));
            CompletableFuture<String> q2 = db.writeAsync(insert("q2"));

            Duration timeout = Duration.ofMillis(50);
            AtomicReference<Object> outcome = new AtomicReference<>();
            AtomicReference<Duration> waited = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                long start = clock.nanoTime();
                try {
                    outcome.set(db.write(WriteOptions.enqueueTimeout(timeout), insert("too-late")));
                } catch (Throwable t) {
                    outcome.set(t);
                }
                waited.set(Duration.ofNanos(clock.nanoTime() - start));
            }, "too-late-writer");
            writer.start();
            awaitTrue("the write to wait for room", () -> clock.isWaiting(writer));
            clock.advance(timeout.minusMillis(1));
            assertThat(clock.isWaiting(writer)).as("1 ms before its enqueue timeout").isTrue();
            clock.advance(Duration.ofMillis(1));
            writer.join(TestLanes.WAIT.toMillis());

            assertThat(outcome.get()).isInstanceOf(QueueFullException.class);
            QueueFullException e = (QueueFullException) outcome.get();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.code()).isEqualTo(ErrorCode.QUEUE_FULL);
            assertThat(waited.get()).as("it waited for room before giving up")
                    .isGreaterThanOrEqualTo(timeout);
            blocker.release();
            join(q1);
            join(q2);
        }
        assertThat(countOf(db, "too-late")).isZero();
    }

    @Test
    void anAcceptedWriteIsNeverFailedBecauseItWaitedLongerThanItsEnqueueTimeout() {
        CompletableFuture<String> accepted;
        try (Blocker blocker = block(db)) {
            accepted = db.writeAsync(WriteOptions.enqueueTimeout(Duration.ofMillis(1)),
                    insert("slow-but-accepted"));
            // The accepted write sits in the queue well past its 1 ms deadline.
            clock.advance(Duration.ofMillis(100));
            assertThat(accepted).isNotDone();
            blocker.release();
        }
        assertThat(join(accepted)).isEqualTo("slow-but-accepted");
        assertThat(countOf(db, "slow-but-accepted")).isEqualTo(1);
    }

    @Test
    void aSyncWriteAcceptedWithAShortEnqueueTimeoutStillCommitsBehindALongTurn() throws Exception {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread writer;
        try (Blocker blocker = block(db)) {
            writer = new Thread(() -> {
                try {
                    outcome.set(db.write(WriteOptions.enqueueTimeout(Duration.ofMillis(1)),
                            insert("sync-accepted")));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }, "sync-writer");
            writer.start();
            awaitTrue("the write to be queued", () -> db.diagnostics().writer().queued() == 1);
            clock.advance(Duration.ofMillis(100)); // the deadline passes while the write is queued
            blocker.release();
        }
        writer.join(TestLanes.WAIT.toMillis());
        assertThat(outcome.get()).isEqualTo("sync-accepted");
    }
}

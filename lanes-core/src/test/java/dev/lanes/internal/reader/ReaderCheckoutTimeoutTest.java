package dev.lanes.internal.reader;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.holdReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.AdmissionTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.ErrorCode;
import dev.lanes.LanesException;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.TestLanes.ReaderHolder;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A read waits for a reader at most {@code readerCheckoutTimeout}, then fails with a message a
 * person can act on; waits end in arrival order. On a manual clock: the test says when the
 * timeout has passed, so no wait depends on the machine's speed.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderCheckoutTimeoutTest {
    final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();

    @Test
    void waitingReadsTimeOutInArrivalOrderWithAMessageNamingTheShapeOfTheWait() {
        Duration checkout = Duration.ofMillis(300);
        Database db = runtime.openWithTable("admission.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(checkout).build());
        ConcurrentLinkedQueue<Integer> failedInOrder = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Object>> reads = new ArrayList<>();
        try (ReaderHolder holder = holdReader(db)) {
            for (int i = 0; i < 4; i++) {
                int n = i;
                CompletableFuture<Object> read = db.readAsync(c -> "never");
                read.whenComplete((v, e) -> failedInOrder.add(n));
                reads.add(read);
                // The next read starts only once this one is queued: arrival order is known.
                awaitTrue("read " + i + " to queue",
                        () -> db.diagnostics().readers().waiting() == n + 1);
            }
            clock.advance(checkout.minusMillis(1));
            assertThat(reads).as("1 ms before the checkout timeout").noneMatch(
                    CompletableFuture::isDone);
            clock.advance(Duration.ofMillis(1));
            for (CompletableFuture<Object> read : reads) {
                assertThat(TestLanes.failureOf(read)).isInstanceOf(AdmissionTimeoutException.class);
            }
            assertThat(holder.read).as("the holder was never disturbed").isNotDone();
        }
        assertThat(failedInOrder).containsExactly(0, 1, 2, 3);

        LanesException first = TestLanes.failureOf(reads.get(0));
        assertThat(first.retryable()).isTrue();
        assertThat(first.code()).isEqualTo(ErrorCode.ADMISSION_TIMEOUT);
        assertThat(first.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(first.getMessage())
                .startsWith("admission.db: ")
                .contains("within 300 ms")
                .containsPattern("waited \\d{3,} ms")
                .contains("capacity 1, 1 in use, 3 other reads waiting")
                .contains("readerCheckoutTimeout");
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.checkoutTimeouts()).isEqualTo(4);
        assertThat(r.waiting()).isZero();
        assertThat(r.readers()).isEqualTo(1);
        assertThat(r.checkoutTimeout()).isEqualTo(checkout);
    }

    @Test
    void threadsWaitingInASynchronousReadEachGiveUpAfterTheCheckoutTimeout() throws Exception {
        Duration checkout = Duration.ofMillis(200);
        Database db = runtime.openWithTable("sync-admission.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(checkout).build());
        List<Thread> waiters = new ArrayList<>();
        List<Long> waitedMillis = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try (ReaderHolder holder = holdReader(db)) {
            for (int i = 0; i < 3; i++) {
                int n = i;
                Thread t = new Thread(() -> {
                    long start = clock.nanoTime();
                    failures.add(catchThrowable(() -> db.query("SELECT 1")));
                    waitedMillis.add(TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - start));
                }, "waiter-" + i);
                t.start();
                waiters.add(t);
                awaitTrue("waiter " + i + " to queue",
                        () -> db.diagnostics().readers().waiting() == n + 1);
                awaitTrue("waiter " + i + " to wait on the clock", () -> clock.isWaiting(t));
            }
            clock.advance(checkout.minusMillis(1));
            assertThat(waiters).as("1 ms before the checkout timeout")
                    .allMatch(clock::isWaiting);
            clock.advance(Duration.ofMillis(1));
            for (Thread t : waiters) {
                t.join(TestLanes.WAIT.toMillis());
            }
        }
        assertThat(failures).hasSize(3).allSatisfy(e -> assertThat(e)
                .isInstanceOf(AdmissionTimeoutException.class)
                .hasMessageContaining("sync-admission.db").hasMessageContaining("within 200 ms"));
        assertThat(waitedMillis).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(200));
    }

    @Test
    void anAsynchronousReadWaitsWithoutAThreadAndTimesOutInItsFuture() {
        Database db = runtime.openWithTable("async.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(Duration.ofMillis(100)).build());
        try (ReaderHolder holder = holdReader(db)) {
            int busyBefore = runtime.lanes().diagnostics().busyThreads();
            CompletableFuture<Object> waiting = db.readAsync(c -> "never");
            assertThat(runtime.lanes().diagnostics().busyThreads())
                    .as("no pool thread waits for a reader").isEqualTo(busyBefore);
            clock.advance(Duration.ofMillis(100));
            LanesException e = failureOf(waiting);
            assertThat(e).isInstanceOf(AdmissionTimeoutException.class);
            assertThat(e.getMessage()).contains("async.db").contains("within 100 ms");
        }
    }
}

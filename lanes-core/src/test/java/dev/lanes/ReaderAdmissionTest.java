package dev.lanes;

import static dev.lanes.TestLanes.await;
import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At most {@code readers} reads run at once; the others wait in arrival order, for at most
 * {@code readerCheckoutTimeout}, then fail with a message a person can act on.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderAdmissionTest {
    @TempDir Path dir;
    Lanes lanes;

    @BeforeEach
    void start() {
        lanes = TestLanes.runtime();
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    /** Holds the database's only reader until released. */
    static final class Holder implements AutoCloseable {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<String> read;

        Holder(Database db) {
            read = db.readAsync(c -> {
                inside.countDown();
                if (!release.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("never released");
                }
                return "holder";
            });
            await(inside, "the holder to take the reader");
        }

        @Override
        public void close() {
            release.countDown();
        }
    }

    @Test
    void waitingReadsTimeOutInArrivalOrderWithAMessageNamingTheShapeOfTheWait() {
        Duration checkout = Duration.ofMillis(300);
        Database db = openWithTable(lanes, dir, "admission.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(checkout).build());
        ConcurrentLinkedQueue<Integer> failedInOrder = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Object>> reads = new ArrayList<>();
        try (Holder holder = new Holder(db)) {
            for (int i = 0; i < 4; i++) {
                int n = i;
                CompletableFuture<Object> read = db.readAsync(c -> "never");
                read.whenComplete((v, e) -> failedInOrder.add(n));
                reads.add(read);
                // The next read starts only once this one is queued: arrival order is known.
                awaitTrue("read " + i + " to queue",
                        () -> db.diagnostics().readers().waiting() == n + 1);
            }
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
        Database db = openWithTable(lanes, dir, "sync-admission.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(checkout).build());
        List<Thread> waiters = new ArrayList<>();
        List<Long> waitedMillis = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Holder holder = new Holder(db)) {
            for (int i = 0; i < 3; i++) {
                int n = i;
                Thread t = new Thread(() -> {
                    long start = System.nanoTime();
                    failures.add(catchThrowable(() -> db.query("SELECT 1")));
                    waitedMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                }, "waiter-" + i);
                t.start();
                waiters.add(t);
                awaitTrue("waiter " + i + " to queue",
                        () -> db.diagnostics().readers().waiting() == n + 1);
            }
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
    void aFreedReaderGoesToTheWaitersInArrivalOrderNotToANewcomer() {
        Database db = openWithTable(lanes, dir, "fifo.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(TestLanes.WAIT).build());
        ConcurrentLinkedQueue<Integer> served = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Integer>> reads = new ArrayList<>();
        try (Holder holder = new Holder(db)) {
            for (int i = 0; i < 5; i++) {
                int n = i;
                // Alternate asynchronous reads and threads parked in a synchronous read.
                if (i % 2 == 0) {
                    reads.add(db.readAsync(c -> {
                        served.add(n);
                        return n;
                    }));
                } else {
                    reads.add(CompletableFuture.supplyAsync(() -> db.read(c -> {
                        served.add(n);
                        return n;
                    }), runnable -> new Thread(runnable, "sync-reader-" + n).start()));
                }
                awaitTrue("read " + i + " to queue",
                        () -> db.diagnostics().readers().waiting() == n + 1);
            }
            assertThat(served).isEmpty();
        }
        reads.forEach(TestLanes::join);
        assertThat(served).containsExactly(0, 1, 2, 3, 4);
        assertThat(db.diagnostics().readers().acquisitions()).isEqualTo(6);
    }

    @Test
    void anAsynchronousReadWaitsWithoutAThreadAndTimesOutInItsFuture() {
        Database db = openWithTable(lanes, dir, "async.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(Duration.ofMillis(100)).build());
        try (Holder holder = new Holder(db)) {
            int busyBefore = lanes.diagnostics().busyThreads();
            CompletableFuture<Object> waiting = db.readAsync(c -> "never");
            assertThat(lanes.diagnostics().busyThreads()).as("no pool thread waits for a reader")
                    .isEqualTo(busyBefore);
            LanesException e = failureOf(waiting);
            assertThat(e).isInstanceOf(AdmissionTimeoutException.class);
            assertThat(e.getMessage()).contains("async.db").contains("within 100 ms");
        }
    }

    @Test
    void aZeroCheckoutTimeoutFailsAtOnceWhenEveryReaderIsBusy() {
        Database db = openWithTable(lanes, dir, "zero.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(Duration.ZERO).build());
        Holder holder = new Holder(db);
        assertThat(catchThrowableOfType(AdmissionTimeoutException.class,
                () -> db.read(c -> null))).isNotNull();
        holder.close();
        join(holder.read);
        assertThat(db.<String>read(c -> "free again")).isEqualTo("free again");
    }

    @Test
    void aCancelledWaitingReadLeavesTheQueueAndNeverRuns() {
        Database db = openWithTable(lanes, dir, "cancel-wait.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(TestLanes.WAIT).build());
        CompletableFuture<String> next;
        CompletableFuture<String> cancelled;
        AtomicBoolean ran = new AtomicBoolean();
        try (Holder holder = new Holder(db)) {
            cancelled = db.readAsync(c -> {
                ran.set(true);
                return "cancelled one ran";
            });
            awaitTrue("the read to queue", () -> db.diagnostics().readers().waiting() == 1);
            assertThat(cancelled.cancel(true)).isTrue();
            assertThat(db.diagnostics().readers().waiting()).isZero();
            next = db.readAsync(c -> "next");
        }
        assertThat(join(next)).isEqualTo("next");
        assertThat(cancelled).isCancelled();
        assertThat(ran).isFalse();
    }

    @Test
    void readerDiagnosticsShowTheConfiguredShape() {
        Database db = openWithTable(lanes, dir, "diag.db", DatabaseOptions.builder()
                .readers(2).readerCheckoutTimeout(Duration.ofSeconds(7))
                .busyTimeout(Duration.ofSeconds(3)).build());
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.readers()).isEqualTo(2);
        assertThat(r.checkoutTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(r.busyTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(r.availableSlots()).isEqualTo(2);
        assertThat(r.currentCheckouts()).isZero();
        try (Holder holder = new Holder(db)) {
            assertThat(db.diagnostics().readers().availableSlots()).isEqualTo(1);
            assertThat(db.diagnostics().readers().currentCheckouts()).isEqualTo(1);
        }
        awaitTrue("the holder to finish", () -> db.diagnostics().readers().currentCheckouts() == 0);
        assertThat(db.diagnostics().readers().longestHold()).isPositive();
    }

    @Test
    void optionBuildersRejectBadValuesAndNameThem() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> DatabaseOptions.builder().readerCheckoutTimeout(Duration.ofMillis(-1))))
                .hasMessageContaining("readerCheckoutTimeout").hasMessageContaining("-0.001");
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> DatabaseOptions.builder().maxResultBytes(0)))
                .hasMessageContaining("maxResultBytes").hasMessageContaining("0");
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> ReadOptions.builder().timeout(Duration.ZERO)))
                .hasMessageContaining("timeout").hasMessageContaining("PT0S");
        assertThat(catchThrowableOfType(NullPointerException.class,
                () -> ReadOptions.builder().timeout(null))).hasMessageContaining("timeout");
        assertThat(DatabaseOptions.DEFAULTS.readerCheckoutTimeout())
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(DatabaseOptions.DEFAULTS.maxResultBytes()).isEqualTo(Long.MAX_VALUE);
        assertThat(ReadOptions.DEFAULTS.timeout()).isEmpty();
        DatabaseOptions o = DatabaseOptions.builder().readerCheckoutTimeout(Duration.ofSeconds(1))
                .maxResultBytes(10).build();
        assertThat(o.toBuilder().build()).isEqualTo(o);
    }
}

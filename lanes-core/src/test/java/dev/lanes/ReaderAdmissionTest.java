package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.holdReader;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.ReaderHolder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * At most {@code readers} reads run at once; the others wait in arrival order, and a freed reader
 * goes to the first of them. (Waits that end at {@code readerCheckoutTimeout}: {@code
 * internal.reader.ReaderCheckoutTimeoutTest}, on a manual clock.)
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderAdmissionTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void aFreedReaderGoesToTheWaitersInArrivalOrderNotToANewcomer() {
        Database db = runtime.openWithTable("fifo.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(TestLanes.WAIT).build());
        ConcurrentLinkedQueue<Integer> served = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Integer>> reads = new ArrayList<>();
        try (ReaderHolder holder = holdReader(db)) {
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
    void aZeroCheckoutTimeoutFailsAtOnceWhenEveryReaderIsBusy() {
        Database db = runtime.openWithTable("zero.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(Duration.ZERO).build());
        ReaderHolder holder = holdReader(db);
        assertThat(catchThrowableOfType(AdmissionTimeoutException.class,
                () -> db.read(c -> null))).isNotNull();
        holder.close();
        join(holder.read);
        assertThat(db.<String>read(c -> "free again")).isEqualTo("free again");
    }

    @Test
    void aCancelledWaitingReadLeavesTheQueueAndNeverRuns() {
        Database db = runtime.openWithTable("cancel-wait.db", DatabaseOptions.builder()
                .readers(1).readerCheckoutTimeout(TestLanes.WAIT).build());
        CompletableFuture<String> next;
        CompletableFuture<String> cancelled;
        AtomicBoolean ran = new AtomicBoolean();
        try (ReaderHolder holder = holdReader(db)) {
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
        Database db = runtime.openWithTable("diag.db", DatabaseOptions.builder()
                .readers(2).readerCheckoutTimeout(Duration.ofSeconds(7))
                .busyTimeout(Duration.ofSeconds(3)).build());
        ReaderDiagnostics r = db.diagnostics().readers();
        assertThat(r.readers()).isEqualTo(2);
        assertThat(r.checkoutTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(r.busyTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(r.availableSlots()).isEqualTo(2);
        assertThat(r.currentCheckouts()).isZero();
        try (ReaderHolder holder = holdReader(db)) {
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
        assertThat(DatabaseOptions.DEFAULTS.maxResultBytes()).isEqualTo(64L * 1024 * 1024);
        assertThat(ReadOptions.DEFAULTS.timeout()).isEmpty();
        DatabaseOptions o = DatabaseOptions.builder().readerCheckoutTimeout(Duration.ofSeconds(1))
                .maxResultBytes(10).build();
        assertThat(o.toBuilder().build()).isEqualTo(o);
    }

    @Test
    void aReadingRunsEveryReadFormOnTheReadersAndRefusesNullOptions() throws Exception {
        Database db = runtime.openWithTable("reading.db", DatabaseOptions.DEFAULTS);
        db.execute("INSERT INTO t(v) VALUES ('a'), ('b')");
        Reading reading = db.reading(ReadOptions.timeout(Duration.ofSeconds(30)));

        assertThat(reading.query("SELECT v FROM t ORDER BY v")).extracting(r -> r.getString("v"))
                .containsExactly("a", "b");
        assertThat(reading.queryOne("SELECT v FROM t WHERE v = ?", "b")).isPresent();
        List<String> streamed = new ArrayList<>();
        assertThat(reading.stream("SELECT v FROM t ORDER BY v", null,
                r -> streamed.add(r.getString("v")))).isEqualTo(2);
        assertThat(streamed).containsExactly("a", "b");
        assertThat(reading.<Boolean>read(c -> c.isReadOnly())).isTrue();
        assertThat(reading.<Boolean>readAsync(c -> c.isReadOnly()).get()).isTrue();
        assertThat(catchThrowableOfType(NullPointerException.class, () -> db.reading(null)))
                .hasMessageContaining("options");
    }
}

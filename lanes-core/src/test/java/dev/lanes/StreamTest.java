package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code db.stream}: rows in order on one reader, the consumer's own exception given
 * back unchanged with the reader returned, the read timeout applied to a stream that would never
 * end, and a million rows through a 64 MiB heap in a child JVM.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    /** Never ends: a recursive CTE without a bound. */
    static final String ENDLESS = "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s)"
            + " SELECT i FROM s";

    @Test
    void rowsArriveInOrderWithTheirParametersAndTheCountIsReturned() {
        Database db = runtime.openWithTable("order.db");
        for (int i = 1; i <= 5; i++) {
            db.execute("INSERT INTO t(id, v) VALUES (?, ?)", i, "v" + i);
        }
        List<String> seen = new ArrayList<>();
        long n = db.stream("SELECT v FROM t WHERE id >= ? ORDER BY id", new Object[] {2},
                row -> seen.add(row.getString("v")));
        assertThat(n).isEqualTo(4);
        assertThat(seen).containsExactly("v2", "v3", "v4", "v5");
        assertThat(db.stream("SELECT v FROM t WHERE id > 99", null, row -> seen.add("no")))
                .isZero();
    }

    @Test
    void theConsumersExceptionIsGivenBackAsItIsAndTheReaderReturned() {
        Database db = runtime.openWithTable("throw.db", DatabaseOptions.builder().readers(1)
                .build());
        IllegalStateException mine = new IllegalStateException("stop at 3");
        Throwable thrown = catchThrowable(() -> db.stream(ENDLESS, null, row -> {
            if (row.getLong("i") == 3) {
                throw mine;
            }
        }));
        assertThat(thrown).isSameAs(mine);
        // the one reader is free again
        assertThat(db.query("SELECT count(*) AS c FROM t").get(0).getLong("c")).isZero();
    }

    @Test
    void theReadTimeoutEndsAStreamThatWouldNeverEnd() {
        Database db = runtime.open("endless.db");
        AtomicLong rows = new AtomicLong();
        DeadlineExceededException e = catchThrowableOfType(DeadlineExceededException.class,
                // long enough for the first row on a loaded machine: a deadline that passes
                // before the stream began is NOT_STARTED, rightly, and not what this test is about
                () -> db.reading(ReadOptions.timeout(Duration.ofSeconds(2))).stream(ENDLESS, null,
                        row -> rows.incrementAndGet()));
        assertThat(e.outcome()).as("it ran, and ended").isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(rows.get()).isPositive();
        assertThat(db.query("SELECT 1 AS one").get(0).getLong("one")).isEqualTo(1);
    }

    @Test
    @Tag("slow")
    void aMillionRowsStreamThroughA64MiBHeap() throws Exception {
        Path file = runtime.path("million.db");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), StreamChild.class.getName(),
                file.toString(), "1000000").redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(240, TimeUnit.SECONDS)).as("the child ends").isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("STREAMED 1000000 rows, sum " + (1_000_000L * 1_000_001 / 2));
    }
}

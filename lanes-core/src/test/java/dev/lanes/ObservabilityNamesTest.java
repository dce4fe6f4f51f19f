package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Errors, logs and metrics name a database by its file name; two open databases with the same
 * file name get a short stable hash suffix, so their messages can be told apart.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ObservabilityNamesTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();


    @Test
    void twoDatabasesWithTheSameFileNameHaveDistinctNamesInErrors() throws Exception {
        Path a = Files.createDirectories(runtime.path("a")).resolve("same.db");
        Path b = Files.createDirectories(runtime.path("b")).resolve("same.db");
        List<String> opened = new CopyOnWriteArrayList<>();
        MetricsListener names = new MetricsListener() {
            @Override
            public void databaseOpened(String db, DatabaseGauges gauges) {
                opened.add(db);
            }
        };

        List<String> first = namesInErrors(names, a, b);

        assertThat(first.get(0)).isEqualTo("same.db");
        assertThat(first.get(1)).matches("same\\.db~[0-9a-f]{6}");
        assertThat(opened).containsExactlyElementsOf(first);

        // Stable: the suffix comes from the path, so the same layout names them the same again.
        opened.clear();
        assertThat(namesInErrors(names, a, b)).isEqualTo(first);
        assertThat(opened).containsExactlyElementsOf(first);
    }

    @Test
    void aLoneDatabaseIsNamedByItsFileNameAlone() {
        Database db = runtime.open("alone.db");
        db.close();
        ClosedException closed = catchThrowableOfType(ClosedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES (?)", "late"));
        assertThat(closed.getMessage()).startsWith("alone.db: ");
    }

    /**
     * Opens {@code a} then {@code b} in a fresh runtime, provokes an overload on each, then a
     * closed-database error on each, and returns the names the messages start with.
     */
    private List<String> namesInErrors(MetricsListener listener, Path a, Path b) {
        try (Lanes lanes = Lanes.builder().name("names").maxThreads(2).metrics(listener).build()) {
            DatabaseOptions tiny = DatabaseOptions.builder().writeQueueCapacity(1)
                .writeQueueTimeout(Duration.ZERO).build();
            Database first = lanes.open(a, tiny);
            Database second = lanes.open(b, tiny);
            first.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
            second.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");

            String overloadedFirst = overloadName(first);
            String overloadedSecond = overloadName(second);
            assertThat(overloadedFirst).isNotEqualTo(overloadedSecond);

            first.close();
            second.close();
            String closedFirst = nameOf(catchThrowableOfType(ClosedException.class,
                    () -> first.execute("INSERT INTO t(v) VALUES (?)", "late")));
            String closedSecond = nameOf(catchThrowableOfType(ClosedException.class,
                    () -> second.execute("INSERT INTO t(v) VALUES (?)", "late")));
            assertThat(closedFirst).isEqualTo(overloadedFirst);
            assertThat(closedSecond).isEqualTo(overloadedSecond);
            return List.of(closedFirst, closedSecond);
        }
    }

    /** Fills the queue of one behind a held body, and returns the name the refusal gives. */
    private static String overloadName(Database db) {
        try (Blocker blocker = block(db)) {
            CompletableFuture<String> queued = db.writeAsync(insert("queued"));
            OverloadedException e = catchThrowableOfType(OverloadedException.class,
                    () -> db.write(insert("refused")));
            blocker.release();
            join(queued);
            return nameOf(e);
        }
    }

    private static String nameOf(LanesException e) {
        assertThat(e).isNotNull();
        String message = e.getMessage();
        assertThat(message).contains(": ");
        return message.substring(0, message.indexOf(": "));
    }
}

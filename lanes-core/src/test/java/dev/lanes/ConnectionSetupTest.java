package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.Function;

/**
 * Pragmas, functions, aggregates and collations hold on every connection of a database
 * (the writer, each reader, the checkpointer's, a backup's), also on the connections reopened
 * after the connection budget evicted them and after an idle release. What each connection got is
 * read two ways: through {@code PRAGMA} reads and the function in queries on the writer and on
 * readers, and by an {@code onConnect} hook that records, on every new connection, what it sees
 * there (it runs last, after the pragmas and functions).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionSetupTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    /** What one new connection saw in its onConnect hook. */
    record Seen(boolean readOnly, long cacheSize, long tempStore, long mmapSize, long twice) {}

    /** The settings under test, different from every SQLite default. */
    static final long CACHE = -3000;
    static final long TEMP_STORE_MEMORY = 2;
    static final long MMAP = 1 << 20;

    /** Records every connection's view, in open order. */
    static final class Recorder {
        final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

        void record(Connection c) throws SQLException {
            seen.add(new Seen(c.isReadOnly(), pragma(c, "cache_size"), pragma(c, "temp_store"),
                    pragma(c, "mmap_size"), scalar(c, "SELECT twice(21)")));
        }

        List<Seen> readers() {
            return select(true);
        }

        List<Seen> readWrite() {
            return select(false);
        }

        private List<Seen> select(boolean readOnly) {
            synchronized (seen) {
                return seen.stream().filter(s -> s.readOnly() == readOnly)
                        .collect(Collectors.toList());
            }
        }
    }

    static final Seen EXPECTED_READER = new Seen(true, CACHE, TEMP_STORE_MEMORY, MMAP, 42);
    static final Seen EXPECTED_WRITER = new Seen(false, CACHE, TEMP_STORE_MEMORY, MMAP, 42);

    static Function twice() {
        return new Function() {
            @Override
            protected void xFunc() throws SQLException {
                result(value_long(0) * 2);
            }
        };
    }

    static DatabaseOptions.Builder settings(Recorder recorder) {
        return DatabaseOptions.builder()
                .pragma("cache_size", CACHE)
                .pragma("temp_store", "MEMORY")
                .pragma("mmap_size", MMAP)
                .function("twice", 1, Function.FLAG_DETERMINISTIC, ConnectionSetupTest::twice)
                .onConnect(recorder::record);
    }

    /** The settings as a body sees them: cache_size, temp_store, mmap_size, twice(21). */
    static Seen inBody(Connection c) throws SQLException {
        return new Seen(c.isReadOnly(), pragma(c, "cache_size"), pragma(c, "temp_store"),
                pragma(c, "mmap_size"), scalar(c, "SELECT twice(21)"));
    }

    static long pragma(Connection c, String name) throws SQLException {
        return scalar(c, "PRAGMA " + name);
    }

    static long scalar(Connection c, String sql) throws SQLException {
        try (var s = c.createStatement(); var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theWriterAndEveryReaderHaveThePragmasAndTheFunction() throws Exception {
        Lanes lanes = runtime.lanes();
        Recorder recorder = new Recorder();
        int readers = 3;
        Database db = lanes.open(runtime.path("every.db"), settings(recorder).readers(readers)
                .build());
        assertThat(db.write(ConnectionSetupTest::inBody)).isEqualTo(EXPECTED_WRITER);

        // Three reads held at once hold three reader connections, each its own.
        CyclicBarrier all = new CyclicBarrier(readers);
        ExecutorService callers = Executors.newFixedThreadPool(readers);
        try {
            List<Future<Seen>> views = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                views.add(callers.submit(() -> db.read(c -> {
                    all.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    return inBody(c);
                })));
            }
            for (Future<Seen> view : views) {
                assertThat(view.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .isEqualTo(EXPECTED_READER);
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(db.query("SELECT twice(?) AS v", 50).get(0).getLong("v")).isEqualTo(100);
        assertThat(db.query("PRAGMA cache_size").get(0).getLong(0)).isEqualTo(CACHE);
        assertThat(recorder.readWrite()).as("the writer, in its onConnect").containsExactly(
                EXPECTED_WRITER);
        assertThat(recorder.readers()).as("isReadOnly() on each reader").hasSize(readers)
                .containsOnly(EXPECTED_READER);
    }

    @Test
    void settingsHoldOnConnectionsReopenedAfterTheBudgetEvictedThem() {
        Lanes lanes = runtime.start(Lanes.builder().name("budget").maxThreads(4)
                .maxOpenConnections(2));
        Recorder recorder = new Recorder();
        Database a = lanes.open(runtime.path("a.db"), settings(recorder).build());
        a.execute("CREATE TABLE t(x INTEGER)");
        a.execute("INSERT INTO t VALUES (1), (2)");
        assertThat(a.query("SELECT sum(twice(x)) AS s FROM t").get(0).getLong("s")).isEqualTo(6);

        // a holds its writer and a reader; b's writer passes the cap of 2, so idle a loses both
        Database b = lanes.open(runtime.path("b.db"));
        b.execute("CREATE TABLE u(x)");
        TestLanes.awaitTrue("a's connections to be evicted",
                () -> lanes.diagnostics().openConnections() == 1
                        && a.diagnostics().readers().openConnections() == 0);

        assertThat(a.query("SELECT sum(twice(x)) AS s FROM t").get(0).getLong("s")).isEqualTo(6);
        assertThat(a.query("PRAGMA mmap_size").get(0).getLong(0)).isEqualTo(MMAP);
        assertThat(a.write(ConnectionSetupTest::inBody)).isEqualTo(EXPECTED_WRITER);
        assertThat(recorder.readWrite()).as("a's writer, opened twice").hasSize(2)
                .containsOnly(EXPECTED_WRITER);
        assertThat(recorder.readers()).as("a's reader, opened twice").hasSize(2)
                .containsOnly(EXPECTED_READER);
    }

    @Test
    void settingsHoldOnReadersReopenedAfterAnIdleRelease() {
        Lanes lanes = runtime.lanes();
        Recorder recorder = new Recorder();
        Database db = lanes.open(runtime.path("idle.db"), settings(recorder).readers(1)
                .idleRelease(Duration.ofMillis(200)).build());
        db.execute("CREATE TABLE t(x INTEGER)");
        db.execute("INSERT INTO t VALUES (5)");
        assertThat(db.query("SELECT twice(x) AS v FROM t").get(0).getLong("v")).isEqualTo(10);
        TestLanes.awaitTrue("the idle release to close the reader",
                () -> db.diagnostics().readers().openConnections() == 0);

        assertThat(db.query("SELECT twice(x) AS v FROM t").get(0).getLong("v")).isEqualTo(10);
        assertThat(db.query("PRAGMA temp_store").get(0).getLong(0)).isEqualTo(TEMP_STORE_MEMORY);
        assertThat(recorder.readers()).as("the reader, opened again").hasSize(2)
                .containsOnly(EXPECTED_READER);
        assertThat(db.write(ConnectionSetupTest::inBody)).as("the writer still").isEqualTo(
                EXPECTED_WRITER);
    }

    @Test
    void theCheckpointersConnectionHasTheSettings() {
        assumeThat(SqliteInfo.current().walResetMitigation())
                .as("a SQLite with the WAL-reset bug: the checkpointer opens no connection "
                        + "(WalResetConfinementTest)").isFalse();
        Lanes lanes = runtime.lanes();
        Recorder recorder = new Recorder();
        Database db = lanes.open(runtime.path("checkpointed.db"), settings(recorder)
                .checkpointMode(CheckpointMode.DEDICATED).build());
        db.execute("CREATE TABLE t(x)");
        db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)"
                + " INSERT INTO t SELECT randomblob(1024) FROM n");
        // The checkpointer opens its own read-write connection once the WAL passes 4 MiB.
        TestLanes.awaitTrue("the checkpointer to open its connection",
                () -> recorder.readWrite().size() == 2);
        assertThat(recorder.readWrite()).as("the writer's and the checkpointer's")
                .containsOnly(EXPECTED_WRITER);
    }

    @Test
    void aBackupsConnectionHasTheSettingsAndItsCopyTheCollationItsIndexNeeds() {
        Lanes lanes = runtime.lanes();
        Recorder recorder = new Recorder();
        DatabaseOptions options = settings(recorder)
                .collation("rev", Comparator.reverseOrder()).build();
        Database db = lanes.open(runtime.path("source.db"), options);
        db.execute("CREATE TABLE t(v TEXT)");
        db.execute("CREATE INDEX t_rev ON t(v COLLATE rev)");
        db.execute("CREATE INDEX t_twice ON t(twice(length(v)))");
        db.executeBatch(List.of(Statement.of("INSERT INTO t VALUES ('a')"),
                Statement.of("INSERT INTO t VALUES ('b')")));
        int readersBefore = recorder.readers().size();

        Path copy = runtime.path("copy.db");
        db.backup(copy);
        assertThat(recorder.readers()).as("the backup's read-only connection")
                .hasSize(readersBefore + 1).containsOnly(EXPECTED_READER);

        Database restored = lanes.open(copy, DatabaseOptions.builder()
                .collation("rev", Comparator.reverseOrder())
                .function("twice", 1, Function.FLAG_DETERMINISTIC, ConnectionSetupTest::twice)
                .build());
        assertThat(restored.query("SELECT v FROM t ORDER BY v COLLATE rev"))
                .extracting(r -> r.getString("v")).containsExactly("b", "a");
        assertThat(Files.exists(copy)).isTrue();
    }
}

package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Per-command profiles: the wait, the execution, and what the command bound and read. */
@Timeout(30)
class ProfileTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.withLanesDefaults();
    Database db;

    @BeforeEach
    void open() {
        db = runtime.open("profile.db");
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, b BLOB)");
    }

    @Test
    void aProfiledStatementCountsItsBindsAndReadsNothing() {
        Profiled<Integer> p = db.profiled().execute("INSERT INTO t(v, b) VALUES (?, ?)", "héllo", new byte[] {1, 2, 3});

        assertThat(p.value()).isEqualTo(1);
        assertThat(p.profile().binds()).isEqualTo(2);
        assertThat(p.profile().rows()).isZero();
        assertThat(p.profile().columns()).isZero();
        assertThat(p.profile().resultBytes()).isZero();
        assertThat(p.profile().execution()).isPositive();
        assertThat(p.profile().waited().isNegative()).isFalse();
        // DDL changes no rows: its count is 0, as for execute
        assertThat(db.profiled().execute("CREATE INDEX t_v ON t(v)").value())
                .isZero();
    }

    @Test
    void aProfiledQueryCountsRowsColumnsAndLogicalBytes() {
        db.execute("INSERT INTO t(v, b) VALUES (?, ?)", "abc", new byte[] {1, 2, 3, 4});
        db.execute("INSERT INTO t(v, b) VALUES (?, ?)", "é", null);
        db.execute("INSERT INTO t(v, b) VALUES (?, ?)", null, null);

        Profiled<List<Row>> p = db.profiled().query(ReadOptions.DEFAULTS,
                "SELECT id, v, b FROM t WHERE id > ? ORDER BY id", 0);

        assertThat(p.value()).hasSize(3);
        assertThat(p.profile().binds()).isEqualTo(1);
        assertThat(p.profile().rows()).isEqualTo(3);
        assertThat(p.profile().columns()).isEqualTo(3);
        // ids: 3 × 8; texts: "abc" 3 + "é" 2 (UTF-8) + NULL 0; blobs: 4 + NULL + NULL
        assertThat(p.profile().resultBytes()).isEqualTo(3 * 8 + 3 + 2 + 4);
    }

    @Test
    void aProfiledBodyCountsWhatItBindsAndReadsAcrossStatements() {
        Profiled<Long> p = db.profiled().write(WriteOptions.DEFAULTS, c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                for (String v : List.of("a", "bb", "ccc")) {
                    insert.setString(1, v);
                    insert.executeUpdate();
                }
            }
            try (var s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM t")) {
                long n = 0;
                while (rs.next()) {
                    rs.getString(1);
                    n++;
                }
                return n;
            }
        });

        assertThat(p.value()).isEqualTo(3);
        assertThat(p.profile().binds()).isEqualTo(3);
        assertThat(p.profile().rows()).isEqualTo(3);
        assertThat(p.profile().columns()).isEqualTo(1);
        assertThat(p.profile().resultBytes()).isEqualTo(1 + 2 + 3);
    }

    @Test
    void theWaitCoversTheTimeTheWriteSpentQueuedBehindAnother() throws Exception {
        TestLanes.Blocker blocker = TestLanes.block(db);
        CompletableFuture<Profiled<Integer>> queued;
        long queuedSeen;
        long released;
        try {
            queued = CompletableFuture.supplyAsync(() -> db.profiled().execute("INSERT INTO t(v) VALUES (?)", "late"));
            TestLanes.awaitTrue("the profiled write to queue",
                    () -> db.diagnostics().writer().queued() == 1);
            queuedSeen = System.nanoTime();
            // time passes while it waits; this orders nothing
            while (System.nanoTime() - queuedSeen < TimeUnit.MILLISECONDS.toNanos(30)) {
                Thread.onSpinWait();
            }
            released = System.nanoTime();
        } finally {
            blocker.release();
        }
        Profile profile = queued.get(10, TimeUnit.SECONDS).profile();
        assertThat(profile.waited()).isGreaterThanOrEqualTo(Duration.ofNanos(released - queuedSeen));
    }

    @Test
    void aProfiledQueryPastMaxResultBytesFails() {
        Database small = runtime.open("small.db",
                DatabaseOptions.builder().maxResultBytes(10).build());
        small.execute("CREATE TABLE t(v TEXT)");
        small.execute("INSERT INTO t(v) VALUES (?)", "x".repeat(100));
        Throwable failure = catchThrowable(
                () -> small.profiled().query(ReadOptions.DEFAULTS, "SELECT v FROM t"));
        assertThat(failure).isInstanceOf(ResultTooLargeException.class)
                .hasMessageContaining("maxResultBytes");
    }
}

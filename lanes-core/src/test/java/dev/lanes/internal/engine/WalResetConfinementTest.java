package dev.lanes.internal.engine;

import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.SqliteInfo;
import dev.lanes.Synchronous;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a SQLite with the WAL-reset bug no connection of a database but its writer ever
 * checkpoints: a database in the default {@code DEDICATED} mode is written past the checkpoint
 * threshold again and again while it is read, backed up, and then left quiet, so that its
 * checkpointer checkpoints and then truncates the WAL; every connection the runtime opens for it
 * is seen through the public {@code onConnect} hook.
 *
 * <p>The connections that can checkpoint are the read-write ones (a read-only connection that
 * Lanes never asks to checkpoint does not: its close leaves the WAL, and SQL that asks for one is
 * refused on readers, see {@code ReaderCheckpointRefusalTest}). The writer is the one read-write
 * connection with {@code foreign_keys} on. The confinement is forced through {@link
 * TestRuntime.Builder#checkpointsOnWriter()}, so that the test runs on any driver; on a SQLite
 * with the bug (the oldest supported driver, 3.50.3.0) it is what every runtime does. The
 * unconfined run shows that the test sees a second read-write connection when there is one.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WalResetConfinementTest {
    /** Rows of 1 KiB per insert statement: about 1 MiB of WAL each. */
    private static final int ROWS = 1000;

    @RegisterExtension final TestRuntime confined = TestRuntime.builder().checkpointsOnWriter()
            .build();
    @RegisterExtension final TestRuntime plain = TestRuntime.create();

    /** A connection the runtime opened: whether it is the writer, and whether it may write. */
    private record Opened(boolean writer, boolean readOnly) {}

    private final List<Opened> opened = new CopyOnWriteArrayList<>();

    private DatabaseOptions options() {
        return DatabaseOptions.builder()
                .checkpointMode(CheckpointMode.DEDICATED)
                .synchronous(Synchronous.NORMAL)
                .onConnect(c -> opened.add(new Opened(pragma(c, "foreign_keys") == 1,
                        c.isReadOnly() || pragma(c, "query_only") == 1)))
                .build();
    }

    private static long pragma(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA " + name)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    @Test
    void confinedEveryCheckpointRunsOnTheWriterAndNoOtherConnectionCanWrite() throws Exception {
        Database db = confined.open("confined.db", options());
        DatabaseDiagnostics.Checkpoints checkpoints = liveOf(db);

        assertThat(checkpoints.completed()).as("the checkpointer checkpointed").isPositive();
        assertThat(checkpoints.lastMode()).as("and truncated the quiet WAL")
                .isEqualTo(Optional.of("TRUNCATE"));
        assertThat(checkpoints.walBytes()).isZero();
        assertThat(opened).as("the writer opened").anyMatch(Opened::writer);
        assertThat(opened).as("readers and the backup opened")
                .anyMatch(o -> !o.writer() && o.readOnly());
        assertThat(opened).as("every connection but the writer is read-only: none but the "
                + "writer checkpoints").allMatch(o -> o.writer() || o.readOnly());
        assertThat(confined.lanes().diagnostics().sqlite().walResetMitigation()).isTrue();
    }

    @Test
    void unconfinedTheCheckpointerOpensAReadWriteConnectionOfItsOwn() throws Exception {
        assumeThat(SqliteInfo.current().walResetMitigation())
                .as("a SQLite without the WAL-reset bug, where checkpoints are not confined")
                .isFalse();
        Database db = plain.open("plain.db", options());
        liveOf(db);

        assertThat(opened).as("the checkpointer's own connection, which the confined run lacks")
                .anyMatch(o -> !o.writer() && !o.readOnly());
    }

    /**
     * Writes about 12 MiB in 1 MiB statements while a reader reads, waiting after each 4 MiB for
     * a checkpoint; backs the database up; then waits for the quiet period's {@code TRUNCATE}.
     */
    private DatabaseDiagnostics.Checkpoints liveOf(Database db) throws Exception {
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        CountDownLatch readerDone = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                while (!stop.get()) {
                    db.query("SELECT count(*) FROM t");
                    reads.incrementAndGet();
                }
            } finally {
                readerDone.countDown();
            }
        }, "confinement-reader");
        reader.start();
        try {
            for (int round = 1; round <= 3; round++) {
                long before = db.diagnostics().checkpoints().completed();
                for (int i = 0; i < 5; i++) {
                    db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                            + "WHERE i < " + ROWS + ") INSERT INTO t(v) SELECT randomblob(1024) "
                            + "FROM n");
                }
                awaitTrue("a checkpoint of round " + round,
                        () -> db.diagnostics().checkpoints().completed() > before);
            }
            awaitTrue("reads ran beside the writes", () -> reads.get() > 0);
        } finally {
            stop.set(true);
            assertThat(readerDone.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the reader ends").isTrue();
        }
        db.backup(db.path().resolveSibling(db.path().getFileName() + ".bak"));
        awaitTrue("the quiet period's truncate", () -> {
            DatabaseDiagnostics.Checkpoints c = db.diagnostics().checkpoints();
            return c.lastMode().equals(Optional.of("TRUNCATE")) && c.walBytes() == 0;
        });
        return db.diagnostics().checkpoints();
    }
}

package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.TestLanes.Blocker;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * An interactive transaction pins the writer lane: its statements run in order, writes issued
 * meanwhile wait for its end and then see what it committed, and nobody outside sees its
 * uncommitted rows.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionIsolationTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    ExecutorService helper = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        helper.shutdownNow();
    }

    @Test
    void statementsRunInCallOrderAndTheTransactionReadsItsOwnWrites() {
        Database db = runtime.openWithTable("order.db");
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter VALUES (1, 1)");

        try (Transaction tx = db.begin()) {
            assertThat(tx.isOpen()).isTrue();
            tx.execute("UPDATE counter SET n = n * 10 WHERE id = 1");
            tx.execute("UPDATE counter SET n = n + 3 WHERE id = 1");
            // 1*10+3 = 13 in call order; (1+3)*10 = 40 if the statements were reordered
            assertThat(tx.query("SELECT n FROM counter WHERE id = 1").get(0).getLong("n"))
                    .isEqualTo(13L);
            for (int i = 0; i < 5; i++) {
                tx.execute("INSERT INTO t(v) VALUES (?)", "step-" + i);
            }
            List<String> seen = tx.run(c -> {
                List<String> values = new ArrayList<>();
                try (PreparedStatement s = c.prepareStatement(
                        "SELECT v FROM t WHERE v LIKE 'step-%' ORDER BY id");
                        ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        values.add(rs.getString(1));
                    }
                }
                return values;
            });
            assertThat(seen).containsExactly("step-0", "step-1", "step-2", "step-3", "step-4");
            tx.commit();
            assertThat(tx.isOpen()).isFalse();
        }
        assertThat(scalar(db, "SELECT n FROM counter WHERE id = 1")).isEqualTo(13);
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'step-%'")).isEqualTo(5);
    }

    @Test
    void aWriteIssuedWhileTheTransactionIsOpenRunsOnlyAfterItsCommitAndSeesItsData()
            throws Exception {
        Database db = runtime.openWithTable("isolation.db");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('tx-1')");

        CompletableFuture<Long> outside = db.writeAsync(c -> {
            long seen = countWhere(c, "tx-%");
            insert("outside").apply(c);
            return seen;
        });
        // This step was submitted after the write, and ran: the lane served the transaction.
        tx.execute("INSERT INTO t(v) VALUES ('tx-2')");
        assertThat(outside).as("a write queued behind an open transaction waits").isNotDone();
        assertThat(tx.query("SELECT count(*) AS n FROM t WHERE v = 'outside'").get(0).getLong("n"))
                .as("the transaction does not see the queued write").isZero();
        assertThat(rawCount(db.path(), "tx-%"))
                .as("another connection does not see uncommitted transaction rows").isZero();
        assertThat(outside).isNotDone();

        tx.commit();

        assertThat(join(outside)).as("the queued write saw the committed transaction").isEqualTo(2L);
        assertThat(rawCount(db.path(), "tx-%")).isEqualTo(2);
        assertThat(rawCount(db.path(), "outside")).isEqualTo(1);
        assertThat(scalar(db, "SELECT min(id) FROM t WHERE v = 'outside'"))
                .as("the queued write ran after the transaction's inserts")
                .isGreaterThan(scalar(db, "SELECT max(id) FROM t WHERE v LIKE 'tx-%'"));
    }

    @Test
    void aReadDuringAnOpenTransactionNeitherWaitsForItNorSeesItsUncommittedRows() {
        // The idle timeout must not end the transaction and so release a read queued behind it.
        Database db = runtime.openWithTable("read-during-tx.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMinutes(10)).build());
        db.execute("INSERT INTO t(v) VALUES ('committed')");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('uncommitted')");

        // Run on another thread, bounded: a read that queued behind the open transaction would
        // not return until the commit below, which happens only after this join.
        long seen = join(CompletableFuture.supplyAsync(() -> countOf(db, "uncommitted"), helper));
        long committed = join(CompletableFuture.supplyAsync(() -> countOf(db, "committed"), helper));

        assertThat(seen).as("a reader does not see the open transaction's rows").isZero();
        assertThat(committed).isEqualTo(1);
        assertThat(tx.isOpen()).isTrue();
        tx.commit();
        assertThat(countOf(db, "uncommitted")).isEqualTo(1);
    }

    @Test
    void aTransactionBodyCanReadItsResultSetMetadata() {
        Database db = runtime.openWithTable("metadata.db");
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('x')");
            String label = tx.run(c -> {
                try (PreparedStatement s = c.prepareStatement("SELECT v AS label FROM t");
                        ResultSet rs = s.executeQuery()) {
                    return rs.getMetaData().getColumnLabel(1);
                }
            });
            assertThat(label).isEqualTo("label");
            tx.commit();
        }
    }

    @Test
    void manyWritesQueuedBehindAnOpenTransactionAllCommitAfterItInOrder() {
        Database db = runtime.openWithTable("queued.db");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        List<CompletableFuture<String>> queued = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            queued.add(db.writeAsync(insert("queued-" + i)));
        }
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        assertThat(queued).noneMatch(CompletableFuture::isDone);
        tx.commit();
        for (int i = 0; i < 50; i++) {
            assertThat(join(queued.get(i))).isEqualTo("queued-" + i);
        }
        assertThat(countOf(db, "tx")).isEqualTo(2);
        List<Row> order = db.query("SELECT v FROM t WHERE v LIKE 'queued-%' ORDER BY id");
        for (int i = 0; i < 50; i++) {
            assertThat(order.get(i).getString("v")).isEqualTo("queued-" + i);
        }
    }

    @Test
    void beginQueuesBehindEarlierWritesAndTheTransactionSeesThem() {
        Database db = runtime.openWithTable("begin-queues.db");
        CompletableFuture<Transaction> begun;
        CompletableFuture<String> earlier;
        try (Blocker blocker = block(db, insert("blocker"))) {
            earlier = db.writeAsync(insert("earlier"));
            begun = CompletableFuture.supplyAsync(db::begin, helper);
            TestLanes.awaitTrue("begin() to queue behind the earlier write",
                    () -> db.diagnostics().writer().queued() == 2);
            assertThat(begun).as("begin waits for the writes queued before it").isNotDone();
            blocker.release();
        }
        try (Transaction tx = join(begun)) {
            // The earlier write committed before BEGIN: the transaction sees it. (Its future
            // may still be completing: outcomes are delivered after the lane is handed on, so
            // begin() can return first; a JDK 25 run caught exactly that.)
            assertThat(tx.query("SELECT count(*) AS n FROM t WHERE v IN ('blocker', 'earlier')")
                    .get(0).getLong("n")).as("the earlier write committed before BEGIN")
                    .isEqualTo(2L);
            tx.commit();
        }
        assertThat(join(earlier)).isEqualTo("earlier");
    }

    @Test
    void anIdleTransactionHoldsNoPoolThreadSoOtherDatabasesKeepWriting() throws Exception {
        runtime.start(Lanes.builder().name("one-thread").maxThreads(1));
        Database pinned = runtime.openWithTable("pinned.db");
        Database other = runtime.openWithTable("other.db");
        // BEGIN queued behind a body on the pool's only thread, so the pool runs it too.
        CompletableFuture<Transaction> begun;
        try (Blocker blocker = block(pinned)) {
            begun = CompletableFuture.supplyAsync(pinned::begin, helper);
            TestLanes.awaitTrue("begin() to queue",
                    () -> pinned.diagnostics().writer().queued() == 1);
            blocker.release();
        }
        Transaction tx = join(begun);
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        CompletableFuture<String> behind = pinned.writeAsync(insert("behind"));

        List<CompletableFuture<String>> writes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            writes.add(other.writeAsync(insert("other-" + i)));
        }
        for (CompletableFuture<String> w : writes) {
            join(w);
        }
        assertThat(tx.isOpen()).isTrue();
        assertThat(behind).isNotDone();

        tx.commit();
        assertThat(join(behind)).isEqualTo("behind");
        assertThat(countOf(pinned, "tx")).isEqualTo(1);
        assertThat(scalar(other, "SELECT count(*) FROM t WHERE v LIKE 'other-%'")).isEqualTo(20);
    }

    /** Rows of {@code t} whose {@code v} is LIKE {@code pattern}, through the guarded connection. */
    private static long countWhere(Connection c, String pattern) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM t WHERE v LIKE ?")) {
            s.setString(1, pattern);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Rows of {@code t} LIKE {@code pattern}, as a separate read-only connection sees them. */
    static long rawCount(Path file, String pattern) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection raw = config.createConnection("jdbc:sqlite:" + file)) {
            return countWhere(raw, pattern);
        }
    }
}

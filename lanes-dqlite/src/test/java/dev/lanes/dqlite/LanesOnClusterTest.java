package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.BatchFailedException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.Row;
import dev.lanes.Statement;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.dqlite.testing.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link Database} contract a cluster database keeps, on a real 3-node dqlite cluster
 * through {@link DqliteCluster} as the engine: statements, atomic batches and scripts (a batch
 * grouped with other writes undone alone by {@code ROLLBACK TO} on dqlite), interactive
 * transactions, cork, reads on the leader, the change version, diagnostics, close, and 64
 * concurrent writers with an exact count and no error. Each test uses its own database.
 */
@Tag("slow")
@Timeout(90)
class LanesOnClusterTest {
    private static LocalCluster cluster;
    private static DqliteCluster engine;
    private static Lanes lanes;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(3);
        engine = cluster.client();
        lanes = Lanes.builder().name("on-cluster").maxThreads(8).build();
    }

    @AfterAll
    static void stop() {
        if (lanes != null) {
            lanes.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Database open(String name) {
        Database db = lanes.openCluster(engine, name, DatabaseOptions.builder()
                .busyTimeout(Duration.ofSeconds(10)).writeQueueCapacity(1024).build());
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
        return db;
    }

    private static long count(Database db, String sql, Object... args) {
        return db.query(sql, args).get(0).getLong("n");
    }

    @Test
    void statementsBatchesAndScriptsCommitAndReadsSeeThem() {
        Database db = open("basics");
        long version = db.changeVersion();

        assertThat(db.execute("INSERT INTO t(v) VALUES (?)", "a")).isEqualTo(1);
        assertThat(db.executeBatch(List.of(Statement.of("INSERT INTO t(v) VALUES (?)", "b"),
                Statement.of("INSERT INTO t(v) VALUES (?)", "c")))).containsExactly(1, 1);
        assertThat(db.executeScript("CREATE TABLE u(x INTEGER); INSERT INTO u VALUES (1);"
                + " INSERT INTO u VALUES (2);")).isEqualTo(3);
        assertThat(db.execute("UPDATE t SET v = v || '!' WHERE v <> ?", "zzz")).isEqualTo(3);

        List<Row> rows = db.query("SELECT id, v FROM t ORDER BY id");
        assertThat(rows).extracting(r -> r.getString("v")).containsExactly("a!", "b!", "c!");
        assertThat(rows.get(0).get("id")).isInstanceOf(Long.class);
        assertThat(count(db, "SELECT sum(x) AS n FROM u")).isEqualTo(3);
        assertThat(db.changeVersion()).isEqualTo(version + 4);
        assertThat(db.diagnostics().writer().counters().committed()).isGreaterThanOrEqualTo(5);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void aFailingBatchLeavesNothingAndItsNeighboursInTheSameTransactionCommit() {
        Database db = open("batches");
        BatchFailedException alone = catchThrowableOfType(() -> db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES ('x')"),
                Statement.of("INSERT INTO t(v) VALUES ('x')"))), BatchFailedException.class);
        assertThat(alone.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(count(db, "SELECT count(*) AS n FROM t")).isZero();

        // corked, every write shares one dqlite transaction: the batch is undone by its
        // savepoint alone
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('before')");
        BatchFailedException grouped = catchThrowableOfType(() -> db.executeBatch(List.of(
                Statement.of("INSERT INTO t(v) VALUES ('in-batch')"),
                Statement.of("INSERT INTO t(v) VALUES ('before')"))), BatchFailedException.class);
        db.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(count(db, "SELECT count(*) AS n FROM t")).isEqualTo(2); // on the lane
        db.uncork();

        assertThat(grouped.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(db.query("SELECT v FROM t ORDER BY id")).extracting(r -> r.getString("v"))
                .containsExactly("before", "after");
    }

    @Test
    void interactiveTransactionsCommitOrRollBackWhole() {
        Database db = open("transactions");
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('kept')");
            assertThat(tx.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(1);
            WriteFailedException duplicate = catchThrowableOfType(
                    () -> tx.execute("INSERT INTO t(v) VALUES ('kept')"),
                    WriteFailedException.class);
            assertThat(duplicate.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(tx.isOpen()).isTrue();
            tx.commit();
        }
        Transaction dropped = db.begin();
        dropped.execute("INSERT INTO t(v) VALUES ('dropped')");
        dropped.rollback();
        try (Transaction tx = db.begin()) {
            WriteFailedException body = catchThrowableOfType(() -> tx.run(c -> {
                c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('body gave up')");
                throw new IllegalStateException("gave up");
            }), WriteFailedException.class);
            assertThat(body.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            tx.run(c -> c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('by body')"));
            tx.commit();
        }

        assertThat(db.query("SELECT v FROM t ORDER BY id")).extracting(r -> r.getString("v"))
                .containsExactly("kept", "by body");
        assertThat(db.isTransactionOpen()).isFalse();
    }

    /**
     * Bodies on the leader: a write body's JDBC connection is inside the lane's transaction (it
     * sees its own insert, a failed statement is caught and the body goes on, a body that throws
     * rolls back alone), and a read body reads the committed rows on a read session.
     */
    @Test
    void bodiesWriteInsideTheLanesTransactionAndReadOnAReadSession() {
        Database db = open("bodies");
        db.execute("INSERT INTO t(v) VALUES ('taken')");

        long seen = db.write(c -> {
            try (var s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t(v) VALUES ('from a body')");
                Throwable duplicate = catchThrowableOfType(() -> s.executeUpdate(
                        "INSERT INTO t(v) VALUES ('taken')"), java.sql.SQLException.class);
                assertThat(duplicate)
                        .isInstanceOf(java.sql.SQLIntegrityConstraintViolationException.class);
                try (var rs = s.executeQuery("SELECT count(*) FROM t")) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
        WriteFailedException thrown = catchThrowableOfType(() -> db.write(c -> {
            c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('thrown')");
            throw new IllegalStateException("gave up");
        }), WriteFailedException.class);
        long read = db.read(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getLong(1);
            }
        });

        assertThat(seen).isEqualTo(2);
        assertThat(thrown.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(read).isEqualTo(2);
        assertThat(db.query("SELECT v FROM t ORDER BY id")).extracting(r -> r.getString("v"))
                .containsExactly("taken", "from a body");
        assertThat(cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    @Test
    void whatAClusterCannotDoIsRefusedAndTheNodesStayUp() {
        Database db = open("refusals");
        List<Runnable> refused = List.of(
                // a write whose rows are left unread makes libdqlite 1.11's leader abort later
                () -> db.execute("INSERT INTO t(v) VALUES ('r') RETURNING id"),
                () -> db.execute("SELECT 1"));
        for (Runnable r : refused) {
            assertThat(catchThrowableOfType(r::run, InvalidRequestException.class).outcome())
                    .isEqualTo(WriteOutcome.NOT_STARTED);
        }
        db.execute("INSERT INTO t(v) VALUES ('after the refusals')");
        assertThat(count(db, "SELECT count(*) AS n FROM t")).isEqualTo(1);
        assertThat(cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    /**
     * The statement rules on a real cluster, each with the message it has on a local file (the
     * full matrix of entry points and rules runs in lanes-core's {@code EntryPointPolicyTest}):
     * two statements where one runs are refused, never cut; {@code ATTACH}, owned and
     * process-wide pragmas, a NUL and a lone surrogate are refused before anything is sent; and
     * nothing of a refused text ran.
     */
    @Test
    void theStatementRulesAnswerAsOnALocalFileAndNothingOfARefusedTextRuns() throws Exception {
        Database db = open("rules");
        String two = "INSERT INTO t(v) VALUES ('one'); INSERT INTO t(v) VALUES ('two')";
        List<Runnable> refused = List.of(
                () -> {
                    try (Transaction tx = db.begin()) {
                        tx.execute(two);
                        tx.commit();
                    }
                },
                () -> db.query("SELECT 1 AS a; SELECT 2 AS b"),
                () -> db.execute(two),
                () -> db.execute("ATTACH DATABASE ':memory:' AS other"),
                () -> db.execute("PRAGMA foreign_keys"),
                () -> db.execute("PRAGMA main.busy_timeout = 0"),
                () -> db.execute("PRAGMA soft_heap_limit = 1000"),
                () -> db.executeScript("INSERT INTO t(v) VALUES ('a');\0"
                        + "INSERT INTO t(v) VALUES ('b')"),
                () -> db.execute("INSERT INTO t(v) VALUES ('lone \uD800')"));
        List<String> says = List.of("more than one statement", "more than one statement",
                "more than one statement", "ATTACH is refused", "returns rows, which",
                "is refused on the writer", "process-wide", "holding a NUL",
                "lone UTF-16 surrogate");
        for (int i = 0; i < refused.size(); i++) {
            InvalidRequestException e = catchThrowableOfType(refused.get(i)::run,
                    InvalidRequestException.class);
            assertThat(e).as("case %d", i).isNotNull();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains(says.get(i)).contains("nothing ran");
        }
        try (java.sql.Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            java.sql.SQLException e = catchThrowableOfType(
                    () -> c.createStatement().execute(two), java.sql.SQLException.class);
            assertThat(e.getMessage()).contains("more than one statement");
            c.rollback();
        }
        assertThat(count(db, "SELECT count(*) AS n FROM t")).isZero();
        assertThat(db.executeScript(two)).as("a script runs whole").isEqualTo(2);
        assertThat(count(db, "SELECT count(*) AS n FROM t")).isEqualTo(2);
        assertThat(cluster.nodes()).allMatch(LocalCluster.Node::alive);
    }

    @Test
    void sixtyFourConcurrentWritersLandEveryRowExactlyOnceWithoutAnError() throws Exception {
        Database db = open("concurrent");
        int writers = 64;
        int each = 40;
        CyclicBarrier start = new CyclicBarrier(writers);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        db.execute("INSERT INTO t(v) VALUES (?)", writer + "-" + i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "writer-" + w);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }

        assertThat(failure.get()).isNull();
        assertThat(count(db, "SELECT count(*) AS n FROM t")).isEqualTo((long) writers * each);
        // grouped: far fewer transactions than writes (each group also records its id)
        assertThat(db.diagnostics().writer().counters().groupsCommitted()).isLessThan((long) writers * each);
        assertThat(db.diagnostics().writer().counters().failed()).isZero();
    }

    @Test
    void closeDrainsAcceptedWritesAndShutdownNowEndsTheDatabase() {
        Database db = open("closing");
        db.execute("INSERT INTO t(v) VALUES ('before close')");
        db.close();
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);

        Database again = lanes.openCluster(engine, "closing", DatabaseOptions.builder()
                .busyTimeout(Duration.ofSeconds(10)).writeQueueCapacity(1024).build());
        assertThat(again).isNotSameAs(db);
        assertThat(count(again, "SELECT count(*) AS n FROM t")).isEqualTo(1);
        again.shutdownNow();
        assertThat(again.state()).isEqualTo(DatabaseState.CLOSED);
    }
}

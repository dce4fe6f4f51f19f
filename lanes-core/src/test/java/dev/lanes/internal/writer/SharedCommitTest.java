package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.awaitTrue;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.ManualClock;
import dev.lanes.spi.CommitFence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Interactive transactions that arrive faster than they commit share one SQLite transaction and
 * one COMMIT: none is acknowledged before that COMMIT, a member's rollback undoes only its own
 * work, and a failed COMMIT fails every member honestly. The lane's clock stands still, so the
 * group's wait bound never ends a group here: only its work does.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedCommitTest {
    private final ManualClock clock = new ManualClock();
    @RegisterExtension final TestRuntime runtime = TestRuntime.builder().clock(clock).build();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    /** A transaction that pins the lane, and the next one queued behind it. */
    private record Pair(Transaction first, Future<Transaction> second) {}

    private Pair firstWithSecondQueued(Database db) {
        Transaction a = db.begin();
        a.execute("INSERT INTO t VALUES (1)");
        Future<Transaction> b = pool.submit(() -> db.begin());
        awaitTrue("the second begin to queue behind the first transaction",
                () -> db.diagnostics().writer().queued() == 1);
        return new Pair(a, b);
    }

    private static <T> T get(Future<T> f) throws Exception {
        return f.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void aCommitWaitsForTheTransactionBehindItAndOneCommitAcknowledgesBoth() throws Exception {
        Database db = runtime.open("shared.db");
        db.execute("CREATE TABLE t(v INTEGER)");
        DatabaseDiagnostics before = db.diagnostics();
        Pair p = firstWithSecondQueued(db);
        Future<?> firstCommit = pool.submit(() -> p.first().commit());
        Transaction b = get(p.second());

        assertThat(firstCommit.isDone()).as("acknowledged before its COMMIT ran").isFalse();
        assertThat(b.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .as("a member sees the members released before it").isEqualTo(1);
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .as("a reader sees nothing that was not acknowledged").isZero();
        b.execute("INSERT INTO t VALUES (2)");
        b.commit();
        get(firstCommit);

        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(2);
        DatabaseDiagnostics after = db.diagnostics();
        assertThat(after.writer().counters().committed() - before.writer().counters().committed()).isEqualTo(2);
        assertThat(after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted())
                .as("one COMMIT for both transactions").isEqualTo(1);
        assertThat(p.first().isOpen()).isFalse();
        assertThat(b.isOpen()).isFalse();
    }

    @Test
    void aMemberThatRollsBackUndoesOnlyItsOwnWork() throws Exception {
        Database db = runtime.open("rollback.db");
        db.execute("CREATE TABLE t(v INTEGER)");
        Pair p = firstWithSecondQueued(db);
        Future<?> firstCommit = pool.submit(() -> p.first().commit());
        Transaction b = get(p.second());
        b.execute("INSERT INTO t VALUES (2)");
        b.rollback();

        get(firstCommit);
        assertThat(db.query("SELECT v FROM t").stream().map(r -> r.getLong("v")).toList())
                .containsExactly(1L);
        db.execute("INSERT INTO t VALUES (3)");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(2);
    }

    @Test
    void aFailedSharedCommitFailsEveryMemberRolledBackAndLosesNothingElse() throws Exception {
        RefusingFence fence = new RefusingFence();
        Database db = runtime.open("refused.db", DatabaseOptions.builder().commitFence(fence)
                .build());
        db.execute("CREATE TABLE t(v INTEGER)");
        Pair p = firstWithSecondQueued(db);
        Future<?> firstCommit = pool.submit(() -> p.first().commit());
        Transaction b = get(p.second());
        b.execute("INSERT INTO t VALUES (2)");
        fence.refuse = true;

        assertThatThrownBy(b::commit).isInstanceOfSatisfying(WriteFailedException.class,
                e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK));
        assertThatThrownBy(() -> get(firstCommit)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(WriteFailedException.class,
                        e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK));
        assertThat(scalar(db, "SELECT count(*) FROM t")).isZero();
        assertThat(p.first().isOpen()).isFalse();

        fence.refuse = false;
        db.execute("INSERT INTO t VALUES (3)");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
    }

    @Test
    void aStatementThatEndsTheSharedTransactionLeavesTheMembersBeforeItCommitted()
            throws Exception {
        Database db = runtime.open("ended.db");
        db.execute("CREATE TABLE t(v INTEGER)");
        db.execute("CREATE TABLE taken(k INTEGER UNIQUE)");
        db.execute("INSERT INTO taken VALUES (1)");
        Pair p = firstWithSecondQueued(db);
        assertThat(p.first().query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .isEqualTo(1);
        Future<?> firstCommit = pool.submit(() -> p.first().commit());
        Transaction b = get(p.second());
        b.execute("INSERT INTO t VALUES (2)");

        assertThatThrownBy(() -> b.execute("INSERT OR ROLLBACK INTO taken(k) VALUES (1)"))
                .isInstanceOfSatisfying(WriteFailedException.class,
                        e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK));
        assertThat(b.isOpen()).isFalse();
        get(firstCommit); // ran again, giving what it gave the first time: it commits
        assertThat(db.query("SELECT v FROM t").stream().map(r -> r.getLong("v")).toList())
                .as("the innocent member's row, and nothing of the culprit's")
                .containsExactly(1L);
    }

    @Test
    void aMemberThatCannotRunAgainEndsRolledBackWhenANeighbourEndsTheSharedTransaction()
            throws Exception {
        Database db = runtime.open("unrepeatable.db");
        db.execute("CREATE TABLE t(v INTEGER)");
        db.execute("CREATE TABLE taken(k INTEGER UNIQUE)");
        db.execute("INSERT INTO taken VALUES (1)");
        Transaction a = db.begin();
        a.execute("INSERT INTO t VALUES (1)");
        // a read whose answer changes when run again: the member cannot be repeated unseen
        a.query("SELECT random() AS r");
        Future<Transaction> second = pool.submit(() -> db.begin());
        awaitTrue("the second begin to queue", () -> db.diagnostics().writer().queued() == 1);
        Future<?> firstCommit = pool.submit(a::commit);
        Transaction b = get(second);

        assertThatThrownBy(() -> b.execute("INSERT OR ROLLBACK INTO taken(k) VALUES (1)"))
                .isInstanceOf(WriteFailedException.class);
        assertThatThrownBy(() -> get(firstCommit)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(WriteFailedException.class, e -> {
                    assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
                    assertThat(e).hasMessageContaining("ended the shared transaction");
                });
        assertThat(scalar(db, "SELECT count(*) FROM t")).as("half-applied rows").isZero();
        db.execute("INSERT INTO t VALUES (3)");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
    }

    @Test
    void anotherKindOfWriteCommitsTheWaitingMembersBeforeItRuns() throws Exception {
        Database db = runtime.open("mixed.db");
        db.execute("CREATE TABLE t(v INTEGER)");
        Pair p = firstWithSecondQueued(db);
        Future<?> firstCommit = pool.submit(() -> p.first().commit());
        Transaction b = get(p.second());
        // its own thread: a thread that began an open transaction may not wait for a write
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<Integer> write = writer.submit(() -> db.execute("INSERT INTO t VALUES (9)"));
        writer.shutdown();
        awaitTrue("the write to queue behind the member", () ->
                db.diagnostics().writer().queued() == 1);
        b.commit(); // no begin waits now: the shared COMMIT runs
        get(firstCommit);
        assertThat(get(write)).isEqualTo(1);
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(2);
    }

    @Test
    void readThenWriteTransactionsFromManyThreadsShareCommitsAndLoseNoUpdate() throws Exception {
        Database db = runtime.open("counter.db");
        db.execute("CREATE TABLE c(id INTEGER PRIMARY KEY, n INTEGER)");
        db.execute("INSERT INTO c VALUES (1, 0)");
        DatabaseDiagnostics before = db.diagnostics();
        int threads = 16;
        int each = 100;
        List<Future<Integer>> done = run(threads, () -> {
            int acknowledged = 0;
            for (int i = 0; i < each; i++) {
                try (Transaction tx = db.begin()) {
                    long n = tx.query("SELECT n FROM c WHERE id = 1").get(0).getLong("n");
                    tx.execute("UPDATE c SET n = ? WHERE id = 1", n + 1);
                    tx.commit();
                    acknowledged++;
                }
            }
            return acknowledged;
        });
        long total = 0;
        for (Future<Integer> f : done) {
            total += get(f);
        }
        assertThat(total).isEqualTo((long) threads * each);
        assertThat(scalar(db, "SELECT n FROM c WHERE id = 1")).as("lost updates").isEqualTo(total);
        DatabaseDiagnostics after = db.diagnostics();
        assertThat(after.writer().counters().committed() - before.writer().counters().committed()).isEqualTo(total);
        assertThat(after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted())
                .as("transactions shared commits").isLessThan(total);
    }

    @Test
    void dataSourceTransactionsShareCommitsAndLoseNoUpdate() throws Exception {
        Database db = runtime.open("jdbc.db");
        db.execute("CREATE TABLE c(id INTEGER PRIMARY KEY, n INTEGER)");
        db.execute("INSERT INTO c VALUES (1, 0)");
        DataSource ds = db.dataSource();
        DatabaseDiagnostics before = db.diagnostics();
        int threads = 8;
        int each = 100;
        List<Future<Integer>> done = run(threads, () -> {
            for (int i = 0; i < each; i++) {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    long n;
                    try (PreparedStatement s = c.prepareStatement("SELECT n FROM c WHERE id = 1");
                            ResultSet rs = s.executeQuery()) {
                        rs.next();
                        n = rs.getLong(1);
                    }
                    try (PreparedStatement s = c.prepareStatement(
                            "UPDATE c SET n = ? WHERE id = 1")) {
                        s.setLong(1, n + 1);
                        s.executeUpdate();
                    }
                    c.commit();
                }
            }
            return each;
        });
        long total = 0;
        for (Future<Integer> f : done) {
            total += get(f);
        }
        assertThat(scalar(db, "SELECT n FROM c WHERE id = 1")).as("lost updates").isEqualTo(total);
        DatabaseDiagnostics after = db.diagnostics();
        assertThat(after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted())
                .as("transactions shared commits").isLessThan(total);
    }

    private List<Future<Integer>> run(int threads, java.util.concurrent.Callable<Integer> work) {
        CyclicBarrier go = new CyclicBarrier(threads);
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                go.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                return work.call();
            }));
        }
        return done;
    }

    /** Refuses every commit while {@link #refuse} is set. */
    private static final class RefusingFence implements CommitFence {
        volatile boolean refuse;

        @Override
        public void beforeCommit(Connection connection) throws SQLException {
            if (refuse) {
                throw new SQLException("refused by the test's fence");
            }
        }

        @Override
        public boolean heldThroughCommit() {
            return true;
        }
    }
}

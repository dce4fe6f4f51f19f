package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.Function;

/**
 * The failure paths of the connection setup: a function that throws fails only its
 * statement, naming it; one function instance serves several connections at once; an {@code
 * onConnect} that fails on the writer kills the database with its cause, on a reader fails that
 * read alone, and the next read opens a connection again.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionSetupFailureTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    /** boom(x): x, or a throw for x = 13. */
    static Function boom() {
        return new Function() {
            @Override
            protected void xFunc() throws SQLException {
                long x = value_long(0);
                if (x == 13) {
                    throw new IllegalStateException("unlucky " + x);
                }
                result(x);
            }
        };
    }

    @Test
    void aThrowingFunctionFailsItsStatementNamingItAndTheLaneStaysHealthy() {
        Database db = runtime.openWithTable("boom.db", DatabaseOptions.builder()
                .function("boom", 1, ConnectionSetupFailureTest::boom).build());

        LanesException onReader = catchThrowableOfType(LanesException.class,
                () -> db.query("SELECT boom(13)"));
        assertThat(onReader).hasMessageContaining("function boom failed")
                .hasMessageContaining("unlucky 13");
        LanesException onWriter = catchThrowableOfType(LanesException.class,
                () -> db.execute("INSERT INTO t(v) VALUES (boom(13))"));
        assertThat(onWriter).hasMessageContaining("function boom failed");
        assertThat(onWriter.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);

        db.execute("INSERT INTO t(v) VALUES (boom(7))");
        assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
        assertThat(db.query("SELECT v, boom(2) AS b FROM t")).singleElement()
                .satisfies(r -> assertThat(r.getString("v")).isEqualTo("7"))
                .satisfies(r -> assertThat(r.getLong("b")).isEqualTo(2));
    }

    @Test
    void oneSharedInstanceServesEveryConnectionAtOnce() throws Exception {
        Function shared = new Function() {
            @Override
            protected void xFunc() throws SQLException {
                result(value_long(0) * 3);
            }
        };
        int readers = 3;
        Database db = runtime.open("shared.db", DatabaseOptions.builder().readers(readers)
                .function("thrice", 1, Function.FLAG_DETERMINISTIC, shared).build());
        db.execute("CREATE TABLE n(x INTEGER)");
        db.execute("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000)"
                + " INSERT INTO n SELECT i FROM s");
        db.execute("CREATE INDEX n_thrice ON n(thrice(x))");

        CyclicBarrier all = new CyclicBarrier(readers);
        ExecutorService callers = Executors.newFixedThreadPool(readers);
        try {
            List<Future<Long>> sums = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                sums.add(callers.submit(() -> db.read(c -> {
                    all.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    try (var s = c.createStatement();
                            var rs = s.executeQuery("SELECT sum(thrice(x)) FROM n")) {
                        rs.next();
                        return rs.getLong(1);
                    }
                })));
            }
            for (Future<Long> sum : sums) {
                assertThat(sum.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .isEqualTo(3L * 2000 * 2001 / 2);
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(db.query("SELECT count(*) AS c FROM n WHERE thrice(x) = 3000").get(0)
                .getLong("c")).isEqualTo(1);
    }

    @Test
    void onConnectFailingOnTheWriterKillsTheDatabaseWithItsCause() {
        Database db = runtime.open("dead.db", DatabaseOptions.builder().onConnect(c -> {
            if (!c.isReadOnly()) {
                throw new SQLException("no writer today");
            }
        }).build());
        CompletionException e = catchThrowableOfType(CompletionException.class,
                () -> db.whenReady().join());
        assertThat(e.getCause()).isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("onConnect").hasMessageContaining("no writer today");
        // whenReady fails a moment before the state reads DEAD; the termination comes after it
        Termination end = db.whenTerminated().join();
        assertThat(end.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(end.cause()).get().asString().contains("no writer today");
        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
        assertThatThrownBy(() -> db.execute("CREATE TABLE t(x)"))
                .isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("no writer today");
    }

    @Test
    void onConnectFailingOnAReaderFailsThatReadAndTheNextOneOpensAgain() {
        AtomicInteger readerOpens = new AtomicInteger();
        Database db = runtime.openWithTable("flaky.db", DatabaseOptions.builder().readers(1)
                .onConnect(c -> {
                    if (c.isReadOnly() && readerOpens.incrementAndGet() == 1) {
                        throw new SQLException("first reader refused");
                    }
                }).build());
        db.execute("INSERT INTO t(v) VALUES ('x')");

        ReadFailedException first = catchThrowableOfType(ReadFailedException.class,
                () -> db.query("SELECT v FROM t"));
        assertThat(first).hasMessageContaining("onConnect")
                .hasMessageContaining("first reader refused");
        assertThat(first.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(first).hasRootCauseInstanceOf(SQLException.class);

        assertThat(db.query("SELECT v FROM t")).extracting(r -> r.getString("v"))
                .containsExactly("x");
        assertThat(readerOpens).hasValue(2);
        assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
    }

    /**
     * A reopen is not an open: a database whose writer connection was closed by the connection
     * budget, and whose reopen fails (here its onConnect; in production, typically a process out
     * of file descriptors), refuses that turn's writes as retryable and never run, and stays
     * alive: the next write reopens it. (Before, the failed reopen made the database dead.)
     */
    @Test
    void aWriterReopenThatFailsRefusesThatTurnRetryablyAndTheDatabaseLivesOn() {
        runtime.start(Lanes.builder().name("reopen").maxThreads(2).maxOpenConnections(1));
        AtomicBoolean refuse = new AtomicBoolean();
        Database a = runtime.openWithTable("a.db", DatabaseOptions.builder().onConnect(c -> {
            if (!c.isReadOnly() && refuse.get()) {
                throw new SQLException("no descriptors left");
            }
        }).build());
        a.execute("INSERT INTO t(v) VALUES ('before')");
        refuse.set(true);
        runtime.openWithTable("b.db"); // past the cap of one: a, idle, loses its writer
        Path wal = a.path().resolveSibling(a.path().getFileName() + "-wal");
        TestLanes.awaitTrue("a's writer connection closed by the budget",
                () -> !Files.exists(wal));

        OverloadedException refused = catchThrowableOfType(OverloadedException.class,
                () -> a.execute("INSERT INTO t(v) VALUES ('refused')"));
        assertThat(refused).as("the write on the failed reopen").isNotNull()
                .hasMessageContaining("cannot be reopened").hasMessageContaining(
                        "no descriptors left");
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(refused.retryable()).isTrue();
        assertThat(a.state()).isEqualTo(DatabaseState.RUNNING);

        refuse.set(false);
        a.execute("INSERT INTO t(v) VALUES ('after')");
        assertThat(a.query("SELECT v FROM t ORDER BY rowid")).extracting(r -> r.getString("v"))
                .containsExactly("before", "after");
        assertThat(a.state()).isEqualTo(DatabaseState.RUNNING);
    }

    @Test
    void onConnectMayNotLeaveATransactionOpen() {
        Database db = runtime.open("tx.db", DatabaseOptions.builder().onConnect(c -> {
            if (!c.isReadOnly()) {
                c.createStatement().execute("BEGIN");
            }
        }).build());
        CompletionException e = catchThrowableOfType(CompletionException.class,
                () -> db.whenReady().join());
        assertThat(e.getCause()).isInstanceOf(DatabaseDeadException.class)
                .hasMessageContaining("must not start one");
    }
}

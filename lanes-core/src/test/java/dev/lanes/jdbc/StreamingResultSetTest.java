package dev.lanes.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.ClosedException;
import dev.lanes.CloseTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ResultTooLargeException;
import dev.lanes.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.Function;

/**
 * An auto-commit read whose result does not fit in one page streams: its result set keeps the
 * reader the query ran on (one statement, so one snapshot) and fetches the next page when {@code
 * next()} passes the end of the current one; the reader goes back when the result is exhausted,
 * the result set, its statement or its connection closes, the statement runs again, a page fails
 * (the failure arrives from {@code next()}), the read's deadline passes, or a lost result set is
 * collected. A result that fits in one page gives its reader back at once. Each test reads what
 * the database reports (reader checkouts and waits), never timings.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamingResultSetTest {
    private static final int ROWS = 50_000;
    private static final String ALL = "SELECT id, v FROM t ORDER BY id";

    @RegisterExtension final JdbcFixture fixture = new JdbcFixture();

    private Database open(String name, DatabaseOptions options) {
        Database db = fixture.open(name, options);
        db.execute("INSERT INTO t(v) WITH RECURSIVE c(x) AS (VALUES(1) UNION ALL SELECT x + 1 "
                + "FROM c WHERE x < " + ROWS + ") SELECT 'v' || x FROM c");
        return db;
    }

    private Database open(String name) {
        return open(name, DatabaseOptions.builder().build());
    }

    private static int checkouts(Database db) {
        return db.diagnostics().readers().currentCheckouts();
    }

    /** Reads the rest of {@code rs}, checking each row is the next id in order after {@code from}. */
    private static int readInOrder(ResultSet rs, int from) throws SQLException {
        int id = from;
        while (rs.next()) {
            id++;
            assertThat(rs.getInt(1)).isEqualTo(id);
            assertThat(rs.getString(2)).isEqualTo("v" + id);
        }
        return id;
    }

    @Test
    void aLargeResultStreamsInOrderHoldingItsReaderUntilExhausted() throws Exception {
        Database db = open("large.db");
        long acquisitions = db.diagnostics().readers().acquisitions();
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(500);
            assertThat(s.getFetchSize()).isEqualTo(500);
            try (ResultSet rs = s.executeQuery(ALL)) {
                assertThat(rs.getFetchSize()).isEqualTo(500);
                assertThat(checkouts(db)).as("the stream holds its reader").isEqualTo(1);
                assertThat(rs.next()).isTrue();
                assertThat(rs.isFirst()).isTrue();
                assertThat(rs.getInt("id")).isEqualTo(1);
                for (int i = 2; i <= 501; i++) {
                    assertThat(rs.next()).isTrue();
                }
                assertThat(rs.getRow()).as("into the second page").isEqualTo(501);
                assertThat(rs.getInt(1)).isEqualTo(501);
                assertThat(checkouts(db)).isEqualTo(1);
                assertThat(readInOrder(rs, 501)).isEqualTo(ROWS);
                assertThat(rs.isAfterLast()).isTrue();
                assertThat(rs.isClosed()).as("exhausted, not closed").isFalse();
                assertThat(checkouts(db)).as("exhausted: the reader went back").isZero();
                assertThat(rs.next()).isFalse();
            }
        }
        assertThat(db.diagnostics().readers().acquisitions() - acquisitions)
                .as("one read, however many pages").isEqualTo(1);
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .as("the reader was reusable").isEqualTo(ROWS);
    }

    @Test
    void aResultLargerThanMaxResultBytesStreamsInPagesInsteadOfBeingRefused() throws Exception {
        Database db = open("bytes.db", DatabaseOptions.builder().maxResultBytes(64 * 1024)
                .build());
        assertThatThrownBy(() -> db.query(ALL)).as("a whole result is still refused")
                .isInstanceOf(ResultTooLargeException.class);
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(ALL);
                ResultSet rs = s.executeQuery()) {
            assertThat(checkouts(db)).isEqualTo(1);
            assertThat(readInOrder(rs, 0)).isEqualTo(ROWS);
            assertThat(checkouts(db)).isZero();
        }
    }

    @Test
    void aResultThatFitsInOnePageGivesItsReaderBackAtOnce() throws Exception {
        Database db = open("small.db");
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("SELECT id, v FROM t WHERE id <= ? ORDER BY id")) {
            s.setInt(1, 10);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(checkouts(db)).as("default page, small result").isZero();
                assertThat(readInOrder(rs, 0)).isEqualTo(10);
            }
            s.setFetchSize(10);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(checkouts(db)).as("exactly one page of rows").isZero();
                assertThat(readInOrder(rs, 0)).isEqualTo(10);
            }
            s.setFetchSize(9);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(checkouts(db)).as("one row more than a page").isEqualTo(1);
                assertThat(readInOrder(rs, 0)).isEqualTo(10);
                assertThat(checkouts(db)).isZero();
            }
        }
    }

    @Test
    void laterPagesSeeTheSnapshotOfTheFirstOne() throws Exception {
        Database db = open("snapshot.db");
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            try (ResultSet rs = s.executeQuery(ALL)) {
                assertThat(rs.next()).isTrue();
                // committed after the first page: a new last row, and every value changed
                db.execute("INSERT INTO t(v) VALUES ('late')");
                db.execute("UPDATE t SET v = 'changed'");
                assertThat(db.query("SELECT count(*) AS n FROM t WHERE v = 'changed'").get(0)
                        .getLong("n")).isEqualTo(ROWS + 1);
                assertThat(readInOrder(rs, 1)).as("the old rows, the old values, no new row")
                        .isEqualTo(ROWS);
            }
        }
    }

    @Test
    void closingTheResultSetTheStatementTheConnectionOrRunningAgainGivesTheReaderBack()
            throws Exception {
        Database db = open("close.db");
        DataSource ds = db.dataSource();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.setFetchSize(100);
            ResultSet rs = s.executeQuery(ALL);
            rs.next();
            assertThat(checkouts(db)).isEqualTo(1);
            rs.close();
            assertThat(checkouts(db)).as("result set closed").isZero();
            assertThatThrownBy(rs::next).isInstanceOf(SQLException.class)
                    .hasMessageContaining("closed");

            ResultSet first = s.executeQuery(ALL);
            first.next();
            ResultSet second = s.executeQuery(ALL);
            assertThat(first.isClosed()).as("the next execution closes it").isTrue();
            assertThat(checkouts(db)).as("only the second holds a reader").isEqualTo(1);
            second.next();
            s.close();
            assertThat(second.isClosed()).isTrue();
            assertThat(checkouts(db)).as("statement closed").isZero();
        }
        Connection c = ds.getConnection();
        Statement s = c.createStatement();
        s.setFetchSize(100);
        ResultSet rs = s.executeQuery(ALL);
        rs.next();
        assertThat(checkouts(db)).isEqualTo(1);
        c.close();
        assertThat(rs.isClosed()).isTrue();
        assertThat(checkouts(db)).as("connection closed").isZero();
    }

    @Test
    void aResultSetClosedFromAnotherThreadGivesItsReaderBackAndEndsTheStream() throws Exception {
        Database db = open("other.db");
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            ResultSet rs = s.executeQuery(ALL);
            assertThat(rs.next()).isTrue();
            CompletableFuture.runAsync(() -> {
                try {
                    rs.close();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }).get(30, TimeUnit.SECONDS);
            assertThat(checkouts(db)).isZero();
            assertThatThrownBy(rs::next).isInstanceOf(SQLException.class);
        }
    }

    /**
     * A close from another thread while the owner is fetching a page waits for that page (the
     * reader connection is never used by two threads at once), then gives the reader back; the
     * owner's page arrives whole, and no page follows it.
     */
    @Test
    void aCloseDuringAPageFetchWaitsForThePageThenGivesTheReaderBack() throws Exception {
        java.util.concurrent.CountDownLatch inPage = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Database db = open("racing.db", DatabaseOptions.builder()
                .function("gate", 1, () -> new Function() {
                    @Override
                    protected void xFunc() throws SQLException {
                        if (value_int(0) == 150) { // inside the second page
                            inPage.countDown();
                            JdbcFixture.awaitInFunction(release);
                        }
                        result(value_int(0));
                    }
                }).build());
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            ResultSet rs = s.executeQuery("SELECT gate(id) FROM t ORDER BY id");
            for (int i = 1; i <= 100; i++) {
                assertThat(rs.next()).isTrue();
            }
            CompletableFuture<Boolean> owner = CompletableFuture.supplyAsync(() -> {
                try {
                    return rs.next(); // fetches the second page, held at row 150
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(inPage.await(30, TimeUnit.SECONDS)).isTrue();
            Thread[] closer = new Thread[1];
            CompletableFuture<Void> closed = new CompletableFuture<>();
            closer[0] = new Thread(() -> {
                try {
                    rs.close();
                    closed.complete(null);
                } catch (Throwable t) {
                    closed.completeExceptionally(t);
                }
            }, "closer");
            closer[0].start();
            awaitTrue(() -> closer[0].getState() == Thread.State.WAITING);
            assertThat(closed).as("waits for the page in progress").isNotDone();
            assertThat(checkouts(db)).isEqualTo(1);
            release.countDown();
            closed.get(30, TimeUnit.SECONDS);
            assertThat(owner.get(30, TimeUnit.SECONDS)).as("its page arrived").isTrue();
            assertThat(checkouts(db)).isZero();
        }
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(ROWS);
    }

    @Test
    void maxRowsEndsAStreamAndGivesTheReaderBackAtItsLastRow() throws Exception {
        Database db = open("maxrows.db");
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            s.setMaxRows(2500);
            try (ResultSet rs = s.executeQuery(ALL)) {
                assertThat(readInOrder(rs, 0)).isEqualTo(2500);
                assertThat(checkouts(db)).isZero();
            }
        }
    }

    @Test
    void aVirtualThreadStreamsItsPagesOnPlatformThreads() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
        Database db = open("virtual.db");
        ExecutorService virtual = (ExecutorService) Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        try {
            Integer last = virtual.submit(() -> {
                try (Connection c = db.dataSource().getConnection();
                        Statement s = c.createStatement()) {
                    s.setFetchSize(700);
                    try (ResultSet rs = s.executeQuery(ALL)) {
                        assertThat(checkouts(db)).isEqualTo(1);
                        int id = readInOrder(rs, 0);
                        assertThat(checkouts(db)).isZero();
                        return id;
                    }
                }
            }).get(30, TimeUnit.SECONDS);
            assertThat(last).isEqualTo(ROWS);
            // a stream left open mid-way by a virtual thread is closed by another one
            ResultSet open = virtual.submit(() -> {
                Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement();
                s.setFetchSize(700);
                ResultSet rs = s.executeQuery(ALL);
                for (int i = 0; i < 1000; i++) {
                    rs.next();
                }
                return rs;
            }).get(30, TimeUnit.SECONDS);
            assertThat(checkouts(db)).isEqualTo(1);
            virtual.submit(() -> {
                open.getStatement().getConnection().close();
                return null;
            }).get(30, TimeUnit.SECONDS);
            assertThat(checkouts(db)).isZero();
        } finally {
            virtual.shutdown();
        }
    }

    /**
     * With one reader, a stream holds it: another read waits for it, as for any read that finds
     * every reader busy, within its checkout timeout, and runs once the stream closes.
     */
    @Test
    void withOneReaderAnotherReadWaitsForTheStreamToClose() throws Exception {
        Database db = open("one.db", DatabaseOptions.builder().readers(1).build());
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            ResultSet rs = s.executeQuery(ALL);
            assertThat(rs.next()).isTrue();
            CompletableFuture<Long> other = CompletableFuture.supplyAsync(() ->
                    db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"));
            awaitTrue(() -> db.diagnostics().readers().waiting() == 1);
            assertThat(other).isNotDone();
            assertThat(readInOrder(rs, 1)).as("the stream goes on meanwhile").isEqualTo(ROWS);
            assertThat(other.get(30, TimeUnit.SECONDS)).as("it ran once the stream ended")
                    .isEqualTo(ROWS);
            rs.close();
        }
    }

    @Test
    void aPageThatFailsThrowsFromNextAndGivesTheReaderBack() throws Exception {
        int failAt = 30_000;
        Database db = open("fail.db", DatabaseOptions.builder()
                .function("boom", 1, () -> new Function() {
                    @Override
                    protected void xFunc() throws SQLException {
                        if (value_int(0) == failAt) {
                            throw new SQLException("boom at " + failAt);
                        }
                        result(value_int(0));
                    }
                }).build());
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            ResultSet rs = s.executeQuery("SELECT boom(id) FROM t ORDER BY id");
            int read = 0;
            Throwable failure = null;
            try {
                while (rs.next()) {
                    read++;
                    assertThat(rs.getInt(1)).isEqualTo(read);
                }
            } catch (SQLException e) {
                failure = e;
            }
            assertThat(failure).isInstanceOf(SQLException.class).hasMessageContaining("boom");
            assertThat(failure.getCause()).isInstanceOf(ReadFailedException.class);
            assertThat(((LanesException) failure.getCause()).outcome())
                    .isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(read).as("the pages before the failing one, none of it")
                    .isEqualTo(failAt - 1000);
            assertThat(checkouts(db)).isZero();
            rs.close();
        }
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n"))
                .as("reads go on").isEqualTo(ROWS);
    }

    /**
     * {@code setQueryTimeout} bounds the whole stream: a result that never ends is stopped at the
     * deadline, in whichever page it is, with the read's timeout outcome.
     */
    @Test
    void theQueryTimeoutBoundsTheWholeStream() throws Exception {
        Database db = open("deadline.db");
        long deadlines = db.diagnostics().readers().deadlinesExceeded();
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            s.setQueryTimeout(1);
            ResultSet rs = s.executeQuery("WITH RECURSIVE n(x) AS (VALUES(1) UNION ALL "
                    + "SELECT x + 1 FROM n) SELECT x FROM n");
            Throwable stopped = catchThrowable(() -> {
                long expected = 0;
                while (rs.next()) {
                    assertThat(rs.getLong(1)).isEqualTo(++expected);
                }
            });
            assertThat(stopped).isInstanceOf(SQLTimeoutException.class);
            assertThat(stopped.getCause()).isInstanceOf(DeadlineExceededException.class);
            assertThat(((LanesException) stopped.getCause()).outcome())
                    .isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(checkouts(db)).isZero();
            assertThat(db.diagnostics().readers().deadlinesExceeded() - deadlines).isEqualTo(1);
        }
    }

    @Test
    void aLostResultSetGivesItsReaderBackWhenCollected() throws Exception {
        Database db = open("leak.db");
        openAndLose(db);
        assertThat(checkouts(db)).isEqualTo(1);
        awaitTrue(() -> {
            System.gc();
            return checkouts(db) == 0;
        });
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(ROWS);
    }

    /** Opens a streaming result set and drops every reference to it and its connection. */
    private static void openAndLose(Database db) throws SQLException {
        Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement();
        s.setFetchSize(100);
        ResultSet rs = s.executeQuery(ALL);
        assertThat(rs.next()).isTrue();
    }

    /**
     * Inside a transaction a result is read whole, on the transaction's connection (which it
     * holds anyway): the fetch size changes nothing, and the rows are right.
     */
    @Test
    void aCloseThatPassesItsTimeoutEndsAStreamItsUserNeverClosedAndItsNextPageFails()
            throws Exception {
        Database db = open("abandoned.db", DatabaseOptions.builder()
                .closeTimeout(Duration.ofMillis(200)).build());
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            ResultSet rs = s.executeQuery(ALL);
            assertThat(rs.next()).isTrue();
            assertThat(checkouts(db)).as("the stream holds its reader").isEqualTo(1);

            // its user is away: the close waits its timeout for it, then ends it
            assertThatThrownBy(db::close).isInstanceOf(CloseTimeoutException.class);
            awaitTrue(() -> checkouts(db) == 0 && db.state() == DatabaseState.CLOSED);

            // the page already fetched is still there; the next one fails, saying why
            assertThat(readPage(rs, 1, 100)).isEqualTo(100);
            assertThat(rs.isLast()).as("rows were left unread").isFalse();
            SQLException failure = catchThrowableOfType(rs::next, SQLException.class);
            assertThat(failure.getSQLState()).isEqualTo("08003");
            assertThat(failure.getCause()).isInstanceOf(ClosedException.class)
                    .hasMessageContaining("abandoned.db")
                    .hasMessageContaining("closeTimeout (200 ms)")
                    .hasMessageContaining("rows after those already read were not read");
            assertThat(rs.isClosed()).isFalse();
            rs.close();
        }
    }

    @Test
    void shutdownNowEndsAStreamAtOnceInsteadOfWaitingForItsUser() throws Exception {
        Database db = open("shutdown.db"); // the default closeTimeout, 5 s
        try (Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.setFetchSize(100);
            try (ResultSet rs = s.executeQuery(ALL)) {
                assertThat(rs.next()).isTrue();
                assertThat(checkouts(db)).isEqualTo(1);

                db.shutdownNow(); // completes: it threw no CloseTimeoutException

                assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
                assertThat(checkouts(db)).isZero();
                assertThat(readPage(rs, 1, 100)).isEqualTo(100);
                assertThat(catchThrowableOfType(rs::next, SQLException.class).getCause())
                        .isInstanceOf(ClosedException.class)
                        .hasMessageContaining("the database was shut down while this result was "
                                + "open");
            }
        }
    }

    /** Reads the rest of the page {@code rs} stands in, row {@code from} to {@code to}. */
    private static int readPage(ResultSet rs, int from, int to) throws SQLException {
        assertThat(rs.getInt(1)).isEqualTo(from);
        int id = from;
        while (id < to) {
            assertThat(rs.next()).isTrue();
            id++;
            assertThat(rs.getInt(1)).isEqualTo(id);
        }
        return id;
    }

    @Test
    void insideATransactionAResultIsReadWhole() throws Exception {
        Database db = open("tx.db");
        for (boolean readOnly : new boolean[] {true, false}) {
            try (Connection c = db.dataSource().getConnection()) {
                c.setReadOnly(readOnly);
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.setFetchSize(100);
                    try (ResultSet rs = s.executeQuery(ALL)) {
                        assertThat(readInOrder(rs, 0)).isEqualTo(ROWS);
                    }
                }
                c.commit();
            }
            assertThat(checkouts(db)).isZero();
        }
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - end).as("waited 30 s").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}

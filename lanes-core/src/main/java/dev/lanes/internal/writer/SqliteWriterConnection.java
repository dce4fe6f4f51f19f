package dev.lanes.internal.writer;

import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.internal.file.Checkpointer;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.sqlite.ControlStatement;
import dev.lanes.internal.sqlite.DriverInternals;
import dev.lanes.internal.sqlite.FaultInjector.Point;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.sqlite.StatementCache;
import dev.lanes.internal.writer.WriteRequest.BodyWrite;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.StatementWrite;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import dev.lanes.spi.CommitFence;
import org.sqlite.SQLiteCommitListener;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteUpdateListener;

/**
 * The writer connection of one database and the transaction steps run on it.
 *
 * <p>Confinement: used only by the thread that holds the writer lane's turn; it takes no lock.
 *
 * <p>Transaction-end detection: SQLite's commit and rollback hooks count every commit and every
 * rollback on this connection, including ones the runtime did not ask for (a conflict clause
 * {@code OR ROLLBACK}, {@code RAISE(ROLLBACK)}, an I/O error, or a statement that autocommitted
 * because the transaction had already ended). A {@link #watch()} compares their counts before and
 * after a body, and so tells at no cost whether the group's transaction survived it.
 *
 * <p>Running requests: statements run on the connection's statement cache through {@link
 * Statements}; bodies run on a {@link ConnectionGuard} with the write policy. The driver's
 * eager {@code SELECT last_insert_rowid()} after every insert is switched off for statements
 * (nobody reads their generated keys) and on for bodies, which may.
 */
final class SqliteWriterConnection implements WriterConnection {
    /** Delays between attempts after a busy {@code BEGIN IMMEDIATE}; see the seed writer_task. */
    private static final long[] BEGIN_RETRY_DELAYS_NANOS = {
        TimeUnit.MILLISECONDS.toNanos(5), TimeUnit.MILLISECONDS.toNanos(10)
    };
    private static final String IN_TRANSACTION = "cannot start a transaction within a transaction";

    final SQLiteConnection raw;
    final StatementCache cache;
    private final String name;
    /** The runtime's statement shapes, for the SQL a body runs. */
    private final Shapes shapes;
    private final long maxResultBytes;
    /** Whether the driver looks up generated keys after inserts now; see the class comment. */
    private boolean generatedKeys = true;
    private final FaultInjector faults;
    private final int busyTimeoutMillis;
    private final ControlStatement beginImmediate;
    private final ControlStatement beginDeferred;
    private final ControlStatement commit;
    private final ControlStatement rollback;
    /** Isolates one request inside a group or a transaction. */
    final Savepoint request;
    /** Stands in for an interactive transaction's BEGIN while the lane is corked. */
    final Savepoint transaction;
    private long commits;
    private long rollbacks;
    /** How the first transaction end since the latest {@link #watch()} happened; null while none. */
    private Boolean firstEndWasCommit;
    private long totalChangesAtBegin;
    private Set<String> changedTables = new HashSet<>();
    private final SQLiteUpdateListener tableRecorder =
            (type, database, table, rowId) -> changedTables.add(table);
    private boolean trackingTables;

    private final WriterCounters counters;

    SqliteWriterConnection(String name, SQLiteConnection raw, int statementCacheSize,
            Duration busyTimeout, long maxResultBytes, FaultInjector faults,
            WriterCounters counters, Shapes shapes) {
        this.name = name;
        this.shapes = shapes;
        this.maxResultBytes = maxResultBytes;
        this.raw = raw;
        this.counters = counters;
        this.faults = faults;
        this.busyTimeoutMillis = SqliteConnections.busyTimeoutMillis(busyTimeout);
        this.cache = new StatementCache(raw, statementCacheSize);
        this.beginImmediate = new ControlStatement(raw, "BEGIN IMMEDIATE");
        this.beginDeferred = new ControlStatement(raw, "BEGIN");
        this.commit = new ControlStatement(raw, "COMMIT");
        this.rollback = new ControlStatement(raw, "ROLLBACK");
        this.request = new Savepoint("lanes_request");
        this.transaction = new Savepoint("lanes_tx");
        raw.addCommitListener(new SQLiteCommitListener() {
            @Override
            public void onCommit() {
                commits++;
                if (firstEndWasCommit == null) {
                    firstEndWasCommit = Boolean.TRUE;
                }
            }

            @Override
            public void onRollback() {
                rollbacks++;
                if (firstEndWasCommit == null) {
                    firstEndWasCommit = Boolean.FALSE;
                }
            }
        });
    }

    @Override
    public Watch watch() {
        firstEndWasCommit = null;
        long eventsBefore = commits + rollbacks;
        long commitsBefore = commits;
        return new Watch() {
            @Override
            public boolean ended() {
                return commits + rollbacks != eventsBefore;
            }

            @Override
            public boolean committed() {
                return commits != commitsBefore;
            }

            @Override
            public boolean firstEndWasCommit() {
                return Boolean.TRUE.equals(firstEndWasCommit);
            }
        };
    }

    /**
     * {@code BEGIN IMMEDIATE}, retried after 5 ms and 10 ms when refused busy, every attempt
     * drawing on one shared {@code busyTimeout} budget.
     *
     * @throws BusyTimeout when the lock stayed taken for the whole budget
     * @throws SQLException when {@code BEGIN} failed for another reason
     */
    @Override
    public void beginImmediate() throws SQLException, BusyTimeout {
        // Real time, not the runtime's clock: the budget is shared with SQLite's own busy
        // handler, which sleeps in real time against another process's lock.
        long start = System.nanoTime();
        long budget = TimeUnit.MILLISECONDS.toNanos(busyTimeoutMillis);
        int currentTimeout = busyTimeoutMillis;
        SQLException last = null;
        int refused = 0;
        try {
            for (int attempt = 0; attempt <= BEGIN_RETRY_DELAYS_NANOS.length; attempt++) {
                if (attempt > 0) {
                    long remaining = budget - (System.nanoTime() - start);
                    if (remaining <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(Math.min(BEGIN_RETRY_DELAYS_NANOS[attempt - 1], remaining));
                    remaining = budget - (System.nanoTime() - start);
                    int millis = (int) Math.max(0, TimeUnit.NANOSECONDS.toMillis(remaining));
                    if (millis != currentTimeout) {
                        raw.setBusyTimeout(millis);
                        currentTimeout = millis;
                    }
                }
                try {
                    faults.before(Point.BEGIN);
                    beginImmediate.run();
                    counters.increment(WriterCounters.ACQUISITIONS);
                    // every refusal this retry overcame
                    counters.add(WriterCounters.BUSY_ABSORBED, refused);
                    totalChangesAtBegin = DriverInternals.totalChanges(raw);
                    if (!changedTables.isEmpty()) {
                        changedTables = new HashSet<>();
                    }
                    return;
                } catch (SQLException e) {
                    if (!SqliteConnections.isBusy(e)) {
                        counters.increment(WriterCounters.BEGIN_ERRORS);
                        throw e;
                    }
                    counters.increment(WriterCounters.BUSY_REFUSALS);
                    refused++;
                    last = e;
                }
            }
        } finally {
            if (currentTimeout != busyTimeoutMillis) {
                raw.setBusyTimeout(busyTimeoutMillis);
            }
        }
        throw new BusyTimeout(System.nanoTime() - start, last);
    }

    @Override
    public void trackTables(boolean track) {
        if (track != trackingTables) {
            if (track) {
                raw.addUpdateListener(tableRecorder);
            } else {
                raw.removeUpdateListener(tableRecorder);
            }
            trackingTables = track;
        }
    }

    @Override
    public long changesSinceBegin() throws SQLException {
        return DriverInternals.totalChanges(raw) - totalChangesAtBegin;
    }

    @Override
    public Set<String> takeChangedTables() {
        Set<String> tables = changedTables;
        changedTables = new HashSet<>();
        return tables;
    }

    @Override
    public void commit() throws SQLException {
        faults.before(Point.COMMIT);
        commit.run();
        faults.after(Point.COMMIT);
    }

    /**
     * Ends the transaction after its {@code COMMIT} failed, and says whether it certainly did not
     * persist.
     *
     * <p>Only a {@code COMMIT} refused before it wrote anything proves that: SQLite then keeps the
     * transaction open (a deferred foreign key that fails, a busy lock), and it is rolled back,
     * verified. Every other failure may have committed. Once a commit's frames reached the WAL,
     * a failed sync makes SQLite report an error and roll back in memory, but crash recovery
     * replays every complete commit in the WAL; with {@code synchronous=FULL}, the frames that pad
     * the WAL after the commit frame can fail with a full disk after the commit frame is written;
     * and a failed autocheckpoint makes a commit that is already durable return an error. So an
     * I/O-class error, or a failure that ended the transaction on its own, leaves the outcome
     * unknown, and after a failed sync the file's state is not known either (as PostgreSQL
     * learned): the caller must poison the writer.
     *
     * @return true when nothing of the transaction persisted (rolled back, verified); false when
     *     its outcome is unknown
     */
    @Override
    public boolean rolledBackAfterFailedCommit(SQLException failure) {
        boolean stillOpen;
        try {
            stillOpen = inTransaction();
        } catch (SQLException probe) {
            stillOpen = false;
        }
        boolean clean = rollbackVerified();
        return clean && stillOpen && !SqliteConnections.isIoFailure(failure);
    }


    /** One named savepoint's three steps, each statement prepared once. */
    final class Savepoint implements AutoCloseable {
        private final ControlStatement begin;
        private final ControlStatement release;
        private final ControlStatement rollbackTo;

        private Savepoint(String name) {
            begin = new ControlStatement(raw, "SAVEPOINT " + name);
            release = new ControlStatement(raw, "RELEASE " + name);
            rollbackTo = new ControlStatement(raw, "ROLLBACK TO " + name);
        }

        void begin() throws SQLException {
            faults.before(Point.SAVEPOINT);
            begin.run();
        }

        void release() throws SQLException {
            faults.before(Point.RELEASE);
            release.run();
        }

        /** Undoes everything since the savepoint and releases it; the transaction stays open. */
        void rollBack() throws SQLException {
            faults.before(Point.ROLLBACK_TO);
            rollbackTo.run();
            release.run();
        }

        @Override
        public void close() {
            begin.close();
            release.close();
            rollbackTo.close();
        }
    }

    /**
     * Rolls the transaction back, if one is open, and verifies that the connection is back in
     * autocommit mode. Never throws: a failure means the state is unknown.
     *
     * @return whether the connection is verified to be outside any transaction
     */
    @Override
    public boolean rollbackVerified() {
        try {
            faults.before(Point.ROLLBACK);
            rollback.run();
        } catch (SQLException e) {
            // "no transaction is active" is success; anything else is judged by the probe below
        }
        try {
            return !inTransaction();
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Whether a transaction is open, probed with a deferred {@code BEGIN} (it takes no lock): it
     * fails exactly when one is open, and is committed at once otherwise.
     */
    @Override
    public boolean inTransaction() throws SQLException {
        try {
            beginDeferred.run();
        } catch (SQLException e) {
            String message = e.getMessage();
            if (message != null && message.contains(IN_TRANSACTION)) {
                return true;
            }
            throw e;
        }
        commit.run();
        return false;
    }

    @Override
    public void savepoint() throws SQLException {
        request.begin();
    }

    @Override
    public void beginNested() throws SQLException {
        transaction.begin();
    }

    @Override
    public void releaseNested() throws SQLException {
        transaction.release();
    }

    @Override
    public void rollBackNested() throws SQLException {
        transaction.rollBack();
    }

    @Override
    public void interrupt() {
        try {
            DriverInternals.interrupt(raw);
        } catch (SQLException e) {
            // the connection is closing: no statement runs on it
        }
    }

    @Override
    public void releaseMemory() {
        try (java.sql.Statement st = raw.createStatement()) {
            st.execute("PRAGMA shrink_memory");
        } catch (SQLException e) {
            // memory stays with SQLite; nothing depends on the release
        }
    }

    @Override
    public boolean emptyWal() {
        // Without waiting: a reader still reading the WAL would hold a TRUNCATE checkpoint for
        // the whole busy timeout, on the thread that evicts.
        try {
            raw.setBusyTimeout(0);
            try {
                return !Checkpointer.run(raw, "TRUNCATE").busy(); // every frame copied, WAL reset
            } finally {
                raw.setBusyTimeout(busyTimeoutMillis);
            }
        } catch (SQLException e) {
            return false; // the WAL stays as it was; the close checkpoints it instead
        }
    }

    @Override
    public void releaseSavepoint() throws SQLException {
        request.release();
    }

    @Override
    public void rollBackToSavepoint() throws SQLException {
        request.rollBack();
    }

    @Override
    public Object run(GroupWrite request) throws Exception {
        if (request instanceof StatementWrite) {
            StatementWrite statement = (StatementWrite) request;
            return execute(statement.shape, statement.args, statement.returns);
        }
        return runGuarded(((BodyWrite) request).body, true, null);
    }

    @Override
    public Object execute(StatementShape shape, Object[] args, Returns returns)
            throws SQLException {
        String sql = shape.sql();
        switch (returns) {
            case KEYS:
                useGeneratedKeys(false);
                return Statements.updateWithKeys(cache, sql, args);
            case ROWS:
                useGeneratedKeys(false);
                return Statements.queryDetailed(cache, sql, args, maxResultBytes, name);
            case COUNT:
            default:
                return update(sql, args);
        }
    }

    @Override
    public void savepointStatement(String sql) throws SQLException {
        try (java.sql.Statement s = raw.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public int update(String sql, Object[] args) throws SQLException {
        useGeneratedKeys(false);
        return Statements.update(cache, sql, args);
    }

    @Override
    public List<Row> query(String sql, Object[] args) throws SQLException {
        return Statements.query(cache, sql, args, maxResultBytes, name);
    }

    /**
     * Runs a body on a guarded connection. A refusal of the guard that the body swallowed still
     * fails it; one a library (jOOQ, JDBI) wrapped in its own exception is what the caller must
     * see, with the wrapper attached.
     *
     * @param inTransaction whether the body runs inside the lane's transaction
     * @param vacuumCheck refuses an in-place VACUUM without headroom; null inside a transaction
     */
    @Override
    public Object runGuarded(SqlFunction<?> body, boolean inTransaction, Runnable vacuumCheck)
            throws Exception {
        return runGuarded(body, inTransaction, vacuumCheck, true);
    }

    @Override
    public void beforeCommit(CommitFence fence) throws Exception {
        runGuarded(connection -> {
            fence.beforeCommit(connection);
            return null;
        }, true, null, true);
    }

    /**
     * The initializer: as {@link #runGuarded(SqlFunction, boolean, Runnable)}, except that an
     * exception it throws is what the open fails with (its migrations name the script and
     * statement that failed, with the refusal as the cause).
     */
    @Override
    public Object runInitializer(SqlFunction<?> initializer) throws Exception {
        return runGuarded(initializer, true, null, false);
    }

    private Object runGuarded(SqlFunction<?> body, boolean inTransaction, Runnable vacuumCheck,
            boolean refusalFirst) throws Exception {
        useGeneratedKeys(true);
        return ConnectionGuard.write(name, raw, inTransaction,
                vacuumCheck, shapes).run(body, refusalFirst);
    }

    private void useGeneratedKeys(boolean on) {
        if (generatedKeys != on) {
            raw.getConnectionConfig().setGetGeneratedKeys(on);
            generatedKeys = on;
        }
    }

    @Override
    public void close() throws SQLException {
        cache.close();
        beginImmediate.close();
        beginDeferred.close();
        commit.close();
        rollback.close();
        request.close();
        transaction.close();
        raw.close();
    }
}

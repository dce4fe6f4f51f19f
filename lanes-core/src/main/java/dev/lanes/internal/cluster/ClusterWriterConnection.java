package dev.lanes.internal.cluster;

import dev.lanes.InvalidRequestException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.writer.BusyTimeout;
import dev.lanes.internal.writer.LaneConnection;
import dev.lanes.internal.writer.WriteRequest.BodyWrite;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.StatementWrite;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterConnection;
import dev.lanes.internal.writer.WriterCounters;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterException;
import dev.lanes.spi.ClusterSession;
import dev.lanes.spi.CommitFence;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer connection of a cluster database: the lane's transaction steps on one {@link
 * ClusterSession} with the leader, a new one opened whenever the leader was lost.
 *
 * <h2>Transactions</h2>
 * {@link #beginImmediate()} sends {@code BEGIN IMMEDIATE} (retried with backoff while refused
 * busy, and on a new session while no leader answers, all within {@code busyTimeout}), then
 * records a fresh group id in the {@link GroupLedger} inside the transaction; the requests run;
 * {@link #commit()} sends {@code COMMIT}. Only {@code COMMIT} makes anything durable, so a
 * failure before it leaves nothing behind.
 *
 * <h2>The end of a transaction</h2>
 * There are no SQLite hooks here, so the connection keeps the transaction's state itself: it ends
 * with {@code COMMIT} or {@code ROLLBACK}, when the session is lost (the server rolls back a
 * session's transaction when it goes, and a node that lost leadership cannot commit it), when a
 * statement that may have run in part fails (the connection gives the transaction up), and when a
 * statement that failed took the transaction with it ({@code OR ROLLBACK}, {@code
 * RAISE(ROLLBACK)}: after every failure inside a transaction a {@code BEGIN} probe asks the
 * server). A {@link #watch()} compares the count of ends; nothing here commits inside a request,
 * so a watch never reports a commit. Every rollback is verified: when the session cannot say, it
 * is closed, which rolls the transaction back.
 *
 * <h2>An uncertain COMMIT</h2>
 * A {@code COMMIT} that fails certainly not run is rolled back (and, when the leader refused it,
 * proven {@linkplain LaneConnection.CommitNotApplied not applied}). One that may have run (the
 * leader was lost during it, the connection dropped, no answer in time) is resolved by the
 * ledger, on the new leader, within {@code busyTimeout}: committed, it returns normally (the
 * writes are acknowledged); not applied, it throws {@link LaneConnection.CommitNotApplied} (the
 * group runs again); unresolved, it throws an {@link UnresolvedCommit}, whose outcome is unknown.
 * Nothing is ever sent twice.
 *
 * <p>Confinement: used only by the thread that holds the lane's turn; it takes no lock. The
 * counters it writes are thread-safe.
 */
final class ClusterWriterConnection implements WriterConnection {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);
    private static final String REQUEST_SAVEPOINT = "lanes_request";
    private static final String NESTED_SAVEPOINT = "lanes_tx";
    private static final long BACKOFF_BASE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long BACKOFF_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    private final ClusterEngine engine;
    private final String database;
    private final long budgetNanos;
    private final long maxResultBytes;
    private final GroupLedger ledger;
    private final WriterCounters counters;
    private final Resolutions resolutions;
    /** Tells the declared types of a JDBC query's columns. */
    private final SchemaCopy schema;
    /** The runtime's statement shapes: whether a statement's count is its changes. */
    private final Shapes shapes;
    /** What a body's JDBC connection runs on: this connection. */
    private final BodyJdbc bodies;
    /** What a maintenance body's JDBC connection runs on: this connection, in auto-commit. */
    private final MaintenanceJdbc maintenance;

    /** The session with the leader; null when there is none yet or it was lost. */
    private ClusterSession session;
    private boolean inTransaction;
    private String groupId;
    private long groupRecordedAt;
    private long changes;
    /** Transactions ended since the connection opened, however they ended. */
    private long ends;
    /** Whether a maintenance body runs: its statements run outside any transaction. */
    private boolean autoCommit;
    /** Writes of maintenance bodies that committed, or may have, on their own. */
    private long autoCommits;

    ClusterWriterConnection(ClusterDatabase db, String name, ClusterEngine engine,
            String database,
            Duration busyTimeout, long maxResultBytes, GroupLedger ledger,
            WriterCounters counters, Resolutions resolutions, SchemaCopy schema,
            ClusterSession first, Shapes shapes) {
        this.shapes = shapes;
        this.name = name;
        this.engine = engine;
        this.database = database;
        this.budgetNanos = busyTimeout.toNanos();
        this.maxResultBytes = maxResultBytes;
        this.ledger = ledger;
        this.counters = counters;
        this.resolutions = resolutions;
        this.schema = schema;
        this.session = first;
        this.bodies = new BodyJdbc(db, schema, this);
        this.maintenance = new MaintenanceJdbc(db, schema, this);
    }

    // ------------------------------------------------------------------ transaction steps

    @Override
    public void beginImmediate() throws SQLException, BusyTimeout {
        Retry retry = new Retry(budgetNanos, BACKOFF_BASE_NANOS, BACKOFF_MAX_NANOS);
        int refused = 0;
        ClusterException last = null;
        while (retry.next()) {
            try {
                ClusterSession s = sessionWithin(retry.timeoutNanos());
                s.execute("BEGIN IMMEDIATE", List.of());
                inTransaction = true;
                changes = 0;
                groupId = ledger.nextId();
                groupRecordedAt = System.currentTimeMillis();
                ledger.record(s, groupId, groupRecordedAt);
            } catch (ClusterException e) {
                last = e;
                ClusterSession s = session;
                if (inTransaction && s != null) {
                    afterFailure(s, e); // recording the group id failed: nothing to keep
                    rollbackVerified();
                }
                if (e.kind() == ClusterException.Kind.BUSY) {
                    counters.busyRefused();
                    refused++;
                    continue;
                }
                if (session == null || !session.isOpen()) {
                    session = null; // no leader yet, or it stopped leading: look again
                    continue;
                }
                counters.beginFailed();
                throw sql(e);
            }
            counters.began(refused);
            return;
        }
        if (last != null && last.kind() == ClusterException.Kind.BUSY) {
            throw new BusyTimeout(retry.elapsedNanos(), sql(last));
        }
        counters.beginFailed();
        throw new SQLException(name + ": no leader of the cluster (" + engine.describe()
                + ") took the transaction within busyTimeout (" + TimeUnit.NANOSECONDS.toMillis(
                budgetNanos) + " ms)" + (last == null ? "" : ": " + last.getMessage()), last);
    }

    @Override
    public void commit() throws SQLException {
        ClusterSession s = sessionInTransaction();
        try {
            s.execute("COMMIT", List.of());
            ended();
            return;
        } catch (ClusterException e) {
            if (e.kind() != ClusterException.Kind.MAY_HAVE_RUN) {
                boolean leaderRefused = !s.isOpen();
                afterFailure(s, e);
                rollbackVerified();
                if (leaderRefused) {
                    // the node refused the COMMIT before running it, and the transaction went
                    // with its session: nothing applied, and the writes are innocent
                    throw new CommitNotApplied(name + ": " + s.node() + " refused the COMMIT ("
                            + e.getMessage() + "); nothing of the transaction applied", e);
                }
                throw sql(e);
            }
            lose(s);
            resolveUncertain(e);
        }
    }

    /** The COMMIT may have run: resolves it by the ledger; returns only when it committed. */
    private void resolveUncertain(ClusterException failure) throws SQLException {
        String id = groupId;
        log.warn("{}: the COMMIT of group {} may have run ({}); resolving it by its group id on "
                + "the leader", name, id, failure.getMessage());
        GroupLedger.Resolution r = ledger.resolve(id, groupRecordedAt, budgetNanos);
        resolutions.count(r.verdict());
        session = r.session();
        switch (r.verdict()) {
            case COMMITTED:
                log.warn("{}: group {} resolved: committed ({})", name, id, r.detail());
                return;
            case NOT_APPLIED:
                log.warn("{}: group {} resolved: not applied ({}); its writes run again", name,
                        id, r.detail());
                throw new CommitNotApplied(name + ": the COMMIT failed (" + failure.getMessage()
                        + ") and was resolved as not applied: " + r.detail(), failure);
            default:
                throw new UnresolvedCommit(name + ": the COMMIT failed (" + failure.getMessage()
                        + ") and could not be resolved: " + r.detail(), failure);
        }
    }

    /**
     * After a failed COMMIT (which ended the transaction here): whether nothing of it persisted.
     * Only an unresolved commit leaves that unknown.
     */
    @Override
    public boolean rolledBackAfterFailedCommit(SQLException failure) {
        return !(failure instanceof UnresolvedCommit) && rollbackVerified();
    }

    @Override
    public boolean rollbackVerified() {
        if (!inTransaction) {
            return true;
        }
        ClusterSession s = session;
        ended();
        if (s == null || !s.isOpen()) {
            session = null;
            return true;
        }
        rollBackOrLose(s);
        return true;
    }

    /** ROLLBACK; when the server cannot say it rolled back, closing the session does it. */
    private void rollBackOrLose(ClusterSession s) {
        try {
            s.execute("ROLLBACK", List.of());
        } catch (ClusterException e) {
            lose(s);
        }
    }

    @Override
    public boolean inTransaction() {
        return inTransaction;
    }

    @Override
    public void savepoint() throws SQLException {
        control("SAVEPOINT " + REQUEST_SAVEPOINT);
    }

    @Override
    public void releaseSavepoint() throws SQLException {
        control("RELEASE " + REQUEST_SAVEPOINT);
    }

    @Override
    public void rollBackToSavepoint() throws SQLException {
        undo(REQUEST_SAVEPOINT);
    }

    @Override
    public void interrupt() {
        // the statement runs on the leader, which a local interrupt does not reach
    }

    @Override
    public void beginNested() throws SQLException {
        control("SAVEPOINT " + NESTED_SAVEPOINT);
    }

    @Override
    public void releaseNested() throws SQLException {
        control("RELEASE " + NESTED_SAVEPOINT);
    }

    @Override
    public void rollBackNested() throws SQLException {
        undo(NESTED_SAVEPOINT);
    }

    /** Undoes everything since the savepoint and releases it; the transaction stays open. */
    private void undo(String savepoint) throws SQLException {
        control("ROLLBACK TO " + savepoint);
        control("RELEASE " + savepoint);
    }

    private void control(String sql) throws SQLException {
        request(s -> s.execute(sql, List.of()));
    }

    @Override
    public Watch watch() {
        long before = ends;
        long commitsBefore = autoCommits;
        return new Watch() {
            @Override
            public boolean ended() {
                return ends != before;
            }

            /** Only a maintenance body's statement commits inside a request, on its own. */
            @Override
            public boolean committed() {
                return autoCommits != commitsBefore;
            }

            @Override
            public boolean firstEndWasCommit() {
                return false;
            }
        };
    }

    // ------------------------------------------------------------------ requests

    @Override
    public Object run(GroupWrite request) throws Exception {
        if (request instanceof StatementWrite) {
            StatementWrite statement = (StatementWrite) request;
            return execute(statement.shape(), statement.args(), statement.returns());
        }
        return runGuarded(((BodyWrite) request).body(), true, null);
    }

    /**
     * A JDBC statement. Generated keys are read as SQLite gives them, {@code last_insert_rowid()}
     * on the same session right after the write (the session is the lane's alone, so nothing ran
     * between); when that read fails, the write's rows are still in the transaction, and it
     * fails {@link Statements.ChangedThenFailed}, which the lane undoes. Rows come only from a
     * read-only statement, read as a query; a write that returns rows ({@code RETURNING}) can
     * abort a libdqlite 1.11 leader (see the lanes-dqlite README), so its caller refused it
     * before anything was sent ({@code StatementPolicy.CLUSTER_WRITER}), as it refused several
     * statements in one, which the server would run all.
     */
    @Override
    public Object execute(StatementShape shape, Object[] args, Returns returns)
            throws SQLException {
        String sql = shape.sql();
        if (returns == Returns.ROWS && shape.reads()) {
            return ClusterSql.resultData(queryWithColumns(sql, args), schema, sql);
        }
        if (returns == Returns.ROWS) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": a database on "
                    + "a cluster returns no rows from a write: " + sql, null);
        }
        int count = update(sql, args);
        if (returns == Returns.COUNT) {
            return count;
        }
        if (count == 0) {
            return new Statements.Update(0, 0);
        }
        List<Row> rowid;
        try {
            rowid = request(s -> s.query("SELECT last_insert_rowid()", List.of()));
        } catch (SQLException e) {
            // the insert's rows are in the transaction still: only a rollback undoes them
            throw new Statements.ChangedThenFailed(name + ": the statement changed " + count
                    + " rows, then reading last_insert_rowid() failed: " + e.getMessage(), e);
        }
        return new Statements.Update(count, ((Number) rowid.get(0).get(0)).longValue());
    }

    @Override
    public void savepointStatement(String sql) throws SQLException {
        control(sql);
    }

    @Override
    public int update(String sql, Object[] args) throws SQLException {
        long n;
        try {
            n = request(s -> s.execute(sql, ClusterSql.params(args)));
        } catch (SQLException e) {
            if (autoCommit && e.getCause() instanceof ClusterException
                    && ((ClusterException) e.getCause()).kind()
                            == ClusterException.Kind.MAY_HAVE_RUN) {
                autoCommits++;
            }
            throw e;
        }
        autoCommits += autoCommit ? 1 : 0;
        if (!shapes.of(sql).countsChanges()) {
            return 0;
        }
        changes += n;
        return (int) n;
    }

    @Override
    public List<Row> query(String sql, Object[] args) throws SQLException {
        return queryWithColumns(sql, args).rows();
    }

    /** {@link #query}, with the result's column names (also when it has no row). */
    ClusterSession.Result queryWithColumns(String sql, Object[] args) throws SQLException {
        ClusterSession.Result result = request(s -> s.queryWithColumns(sql,
                ClusterSql.params(args)));
        ClusterSql.checkSize(name, sql, result.rows(), maxResultBytes);
        return result;
    }

    /**
     * Runs a request on the transaction's session, keeping the transaction's state true; for a
     * maintenance body, on the session outside a transaction (with a new leader if it was lost).
     */
    private <T> T request(Function<ClusterSession, T> call) throws SQLException {
        ClusterSession s = autoCommit && !inTransaction ? sessionWithin(budgetNanos)
                : sessionInTransaction();
        try {
            return call.apply(s);
        } catch (ClusterException e) {
            afterFailure(s, e);
            throw sql(e);
        }
    }

    /** A request inside the transaction failed: does the transaction go on? */
    private void afterFailure(ClusterSession s, ClusterException e) {
        if (!s.isOpen()) {
            lose(s);
        } else if (!inTransaction) {
            return;
        } else if (e.kind() == ClusterException.Kind.MAY_HAVE_RUN) {
            // part of it may have run inside the transaction: give the transaction up
            lose(s);
        } else if (!stillInTransaction(s)) {
            ended(); // it took the transaction with it (OR ROLLBACK, RAISE(ROLLBACK))
        }
    }

    /**
     * Asks the server whether the session is inside a transaction: a deferred {@code BEGIN} is
     * refused exactly when it is, and takes no lock when it is not (it is rolled back at once).
     */
    private boolean stillInTransaction(ClusterSession s) {
        try {
            s.execute("BEGIN", List.of());
        } catch (ClusterException e) {
            if (e.kind() == ClusterException.Kind.NOT_RUN && s.isOpen()) {
                return true;
            }
            lose(s);
            return false;
        }
        rollBackOrLose(s); // the probe's own transaction
        return false;
    }

    /**
     * Lane work on this connection; a body on a JDBC connection inside the transaction ({@link
     * BodyJdbc}), or, for maintenance, outside any ({@link MaintenanceJdbc}: each statement on
     * the session in auto-commit). There is no disk reserve to check before a {@code VACUUM}.
     */
    @Override
    public Object runGuarded(SqlFunction<?> body, boolean inTransaction, Runnable vacuumCheck)
            throws Exception {
        if (body instanceof LaneWork) {
            return ((LaneWork<?>) body).run(this);
        }
        if (inTransaction) {
            return bodies.run(body);
        }
        autoCommit = true;
        try {
            return maintenance.run(body);
        } finally {
            autoCommit = false;
        }
    }

    /** Never called: a cluster database refuses a commit fence when it opens (ClusterOptions). */
    @Override
    public void beforeCommit(CommitFence fence) {
        throw new IllegalStateException(name + ": a cluster database has no commit fence");
    }

    /** Never called: a cluster database refuses an initializer when it opens (ClusterOptions). */
    @Override
    public Object runInitializer(SqlFunction<?> initializer) {
        throw new IllegalStateException(name + ": a cluster database has no initializer");
    }

    @Override
    public long changesSinceBegin() {
        return changes;
    }

    /** The tables are not known on a cluster (no update hook): notifications carry none. */
    @Override
    public Set<String> takeChangedTables() {
        return new HashSet<>();
    }

    @Override
    public void trackTables(boolean track) {
        // nothing to track with: see takeChangedTables
    }

    @Override
    public void releaseMemory() {
        // the memory is the server's
    }

    @Override
    public boolean emptyWal() {
        return false; // the WAL is the server's
    }

    @Override
    public void close() {
        ClusterSession s = session;
        session = null;
        if (s != null) {
            s.close();
        }
        if (inTransaction) {
            ended();
        }
    }

    // ------------------------------------------------------------------ the session

    /** The session, opened with the leader if there is none; for a transaction's BEGIN. */
    private ClusterSession sessionWithin(long timeoutNanos) {
        ClusterSession s = session;
        if (s == null || !s.isOpen()) {
            session = null;
            s = engine.open(database, Duration.ofNanos(timeoutNanos));
            session = s;
        }
        return s;
    }

    /** The session of the open transaction; never a new one, which would not be in it. */
    private ClusterSession sessionInTransaction() throws SQLException {
        ClusterSession s = session;
        if (!inTransaction || s == null) {
            throw new SQLException(name + ": no transaction is open on the cluster (its session "
                    + "was lost); nothing was sent");
        }
        return s;
    }

    /** The session is gone or given up: the server rolls back what it held. */
    private void lose(ClusterSession s) {
        s.close();
        if (session == s) {
            session = null;
        }
        if (inTransaction) {
            ended();
        }
    }

    private void ended() {
        inTransaction = false;
        ends++;
    }

    private static SQLException sql(ClusterException e) {
        return new SQLException(e.getMessage(), null, (int) e.code(), e);
    }

    /** A COMMIT whose outcome stays unknown: no resolution could complete. */
    static final class UnresolvedCommit extends SQLException {
        private static final long serialVersionUID = 1L;

        UnresolvedCommit(String message, Throwable cause) {
            super(message, cause);
        }
    }
}

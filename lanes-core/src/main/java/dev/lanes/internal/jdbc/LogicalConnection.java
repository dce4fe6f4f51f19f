package dev.lanes.internal.jdbc;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.jdbc.JdbcSavepoint.Op;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.ResultPages;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The {@link Connection} of {@code db.dataSource()}: a light handle that holds no SQLite
 * connection of its own. Each statement becomes a request of its database:
 *
 * <ul>
 *   <li>in auto-commit mode (the default), a statement classified read-only runs on a reader, as
 *       {@code db.query} does, except that a result larger than one page (the fetch size, else
 *       about {@link Paging#PAGE_BYTES}) streams: its result set keeps the reader, and the one
 *       statement's snapshot, until it is exhausted or closed (see {@link DetachedResultSet});
 *       anything else is one write on the writer lane, grouped with its
 *       neighbours ({@code INSERT … RETURNING} through {@code executeQuery} included); a batch is
 *       one atomic request;
 *   <li>after {@code setAutoCommit(false)}, the first statement begins the transaction: a
 *       read-write one pins the writer lane ({@code BEGIN IMMEDIATE}, as {@code db.begin()}), so
 *       its reads see the latest state and its writes never meet {@code SQLITE_BUSY}; a read-only
 *       one ({@code setReadOnly(true)} first) is one snapshot on a reader, where writes are
 *       refused. {@code commit}, {@code rollback} and savepoints end or mark it; {@code close}
 *       without a commit rolls back.
 * </ul>
 * In a query outside a pinned transaction, {@code last_insert_rowid()} and {@code changes()} are
 * what this connection's own last write did ({@link ConnectionFunctions}), as on a SQLite
 * connection, not what a reader or the lane did last.
 * Failures arrive as standard SQL exceptions with the Lanes exception as the cause (see {@link
 * SqlExceptions}). A thread that holds the pinned transaction cannot queue a write behind it: the
 * lane refuses that at once.
 *
 * <h2>Invariants</h2>
 * Not thread-safe, as JDBC connections are not: one user at a time (a connection pool or a
 * transaction manager binds it to one thread), who alone reads and writes every field; the
 * database underneath is thread-safe. While {@code autoCommit} is true, {@code tx} is not begun
 * (it is made at the first use of manual-commit mode, null before: most connections of a pool
 * or a template run one auto-commit statement and close); {@code readOnly} changes only while
 * it is not. Once {@code closed}, nothing runs again, {@code tx} has ended (rolled back when it
 * was not committed) and {@code statements} is null. {@code statements} and {@code paging} are
 * made at their first use, so that a borrow that runs one statement costs no
 * more objects than it needs. {@code admittedShape} was admitted under {@code admittedPolicy}
 * with {@code admittedAttachLimit} (a shape and a policy are immutable, so it stays admitted).
 */
final class LogicalConnection extends SettingsConnection {
    private final JdbcBackend db;
    /** The data source's constant metadata answers, shared by its connections. */
    private final JdbcMetaData.Constants metaData;
    /** The data source's texts whose declared types were asked for, shared by its connections. */
    private final TypesAsked typesAsked;
    /** The open statements, in creation order; null before the first one and once closed. */
    private List<JdbcStatement> statements;
    private boolean closed;
    private boolean autoCommit = true;
    private boolean readOnly;
    private int isolation = Connection.TRANSACTION_SERIALIZABLE;
    /** The transaction of manual-commit mode; null until that mode first runs something. */
    private LogicalTransaction tx;
    /** {@code last_insert_rowid()} and {@code changes()} of this connection's own writes. */
    private final ConnectionFunctions functions = new ConnectionFunctions();
    /**
     * Reused by each auto-commit read, made at the first; its rest is null but between a
     * streamed read and {@link #takeRest}, which its statement calls right after.
     */
    private Paging paging;
    /** The last shape admitted ({@link #admit}), its policy and attach limit; null before. */
    private StatementShape admittedShape;
    private StatementPolicy admittedPolicy;
    private int admittedAttachLimit;

    LogicalConnection(JdbcBackend db, JdbcMetaData.Constants metaData, TypesAsked typesAsked) {
        this.db = db;
        this.metaData = metaData;
        this.typesAsked = typesAsked;
    }

    /** The shape of {@code sql}, found once per text for the runtime. */
    StatementShape shape(String sql) {
        return db.shapes().of(sql);
    }

    /** The transaction of manual-commit mode, made at its first use. */
    private LogicalTransaction tx() {
        LogicalTransaction t = tx;
        if (t == null) {
            t = new LogicalTransaction(db);
            tx = t;
        }
        return t;
    }

    /** Whether a manual-commit transaction began and has not ended. */
    private boolean inTransaction() {
        return tx != null && tx.isOpen();
    }

    // ------------------------------------------------------------------ execution

    /**
     * Runs one statement where its kind and the connection's mode say, within {@code timeout}:
     * a read's deadline, a write's (or the transaction's first statement's) time to start. An
     * auto-commit read returns at most {@code pageRows} rows (and one page's bytes) at first and
     * streams the rest from its reader ({@link Execution#rest}); inside a transaction the whole
     * result is read, on the transaction's own connection. The caller takes the rest at once
     * ({@link #takeRest}).
     */
    Execution run(StatementShape shape, Object[] args, Execution.Intent intent, boolean keys,
            QueryTimeout timeout, int pageRows) throws SQLException {
        checkOpen();
        boolean read = intent != Execution.Intent.UPDATE && shape.reads();
        Returns returns = intent == Execution.Intent.QUERY
                || (intent == Execution.Intent.ANY && shape.returnsRows())
                ? Returns.ROWS : keys ? Returns.KEYS : Returns.COUNT;
        try {
            // a read-only transaction runs everything on its snapshot: reads only
            StatementPolicy policy = read || (readOnly && !autoCommit) ? StatementPolicy.READER
                    : db.writePolicy(returns == Returns.ROWS);
            admit(policy, shape);
            if (autoCommit) {
                return read ? Execution.ofRows(autoCommitRead(shape, args, timeout, pageRows))
                        : autoCommitWrite(shape, args, returns, timeout);
            }
            LogicalTransaction t = tx();
            t.begin(readOnly, timeout);
            return t.run(shape, args, read, returns, functions, timeout);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    /**
     * Admits {@code shape} under {@code policy}, unless it was the last one admitted under the
     * same policy and attach limit: admission depends on nothing else, and a statement run in a
     * loop is admitted once.
     */
    private void admit(StatementPolicy policy, StatementShape shape) {
        int attachLimit = db.attachLimit();
        if (shape == admittedShape && policy == admittedPolicy
                && attachLimit == admittedAttachLimit) {
            return;
        }
        policy.admit(db.name(), shape, attachLimit);
        admittedShape = shape;
        admittedPolicy = policy;
        admittedAttachLimit = attachLimit;
    }

    /**
     * One auto-commit read on a reader, unless this connection answers it itself: its first page;
     * when the reader is kept for the rest, {@link #takeRest} gives it.
     */
    private ResultData autoCommitRead(StatementShape shape, Object[] args, QueryTimeout timeout,
            int pageRows) {
        ResultData own = functions.answer(shape);
        if (own != null) {
            return own;
        }
        Paging p = paging;
        if (p == null) {
            p = new Paging();
            paging = p;
        }
        p.pageRows(pageRows);
        p.declaredTypes(typesAsked.contains(shape.sql()));
        return db.queryData(timeout.read(), shape, functions.substituted(shape), args, p);
    }

    /**
     * What finds the declared types of {@code data}, a result of {@code sql} read without them,
     * when they are first asked: it marks the text, so that its later reads carry them, and
     * prepares it on a reader (as {@link #getMetaData()}'s calls run outside a transaction),
     * whatever this connection does by then.
     */
    DetachedMetaData.DeclaredTypes declaredTypes(String sql, ResultData data) {
        return () -> {
            typesAsked.add(sql);
            return metaDataCall(() -> db.metaData(
                    c -> ResultData.declaredTypesOf(c, sql, data.labels())));
        };
    }

    /**
     * The pages after the first of the read {@link #run} just ran, which its statement takes at
     * once; null when there are none (a whole result, a write, a transaction's statement).
     */
    ResultPages takeRest() {
        if (paging == null) {
            return null; // no auto-commit read ran yet
        }
        ResultPages rest = paging.rest();
        paging.rest(null);
        return rest;
    }

    /**
     * One auto-commit write. An insert fetches its rowid (one more step on the lane, as the driver
     * does after every insert) so that a later {@code SELECT last_insert_rowid()} on this
     * connection answers what it inserted.
     */
    private Execution autoCommitWrite(StatementShape shape, Object[] args, Returns returns,
            QueryTimeout timeout) {
        Returns asked = returns == Returns.COUNT && shape.mayInsert() ? Returns.KEYS : returns;
        Execution o = Execution.of(db.write(shape, args, asked, timeout.start()));
        if (o.rows() == null) {
            functions.wrote(shape, o.count(), o.keys());
        }
        return o;
    }

    /**
     * Runs a statement's batch: one atomic request in auto-commit mode, else statement by
     * statement inside the transaction.
     */
    int[] runBatch(List<dev.lanes.Statement> batch, QueryTimeout timeout) throws SQLException {
        checkOpen();
        try {
            if (autoCommit) {
                return db.executeBatch(batch, timeout.start()); // one atomic request
            }
            LogicalTransaction t = tx();
            t.begin(readOnly, timeout);
            return t.runBatch(batch, timeout);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    void statementClosed(JdbcStatement s) {
        if (statements != null) { // null while the connection closes them all
            statements.remove(s);
        }
    }

    private <S extends JdbcStatement> S track(S s) {
        if (statements == null) {
            statements = new ArrayList<>(4);
        }
        statements.add(s);
        return s;
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException(db.name() + ": the connection is closed", "08003");
        }
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void setAutoCommit(boolean on) throws SQLException {
        checkOpen();
        if (on && !autoCommit) {
            commit(); // JDBC: switching auto-commit on commits the transaction in progress
        }
        autoCommit = on;
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        end(true);
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        end(false);
    }

    private void end(boolean commit) throws SQLException {
        if (tx == null) {
            return; // manual-commit mode never ran anything: nothing to end
        }
        try {
            tx.end(commit);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return savepoint(null);
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        if (name == null || name.isEmpty()) {
            throw new SQLException("a savepoint needs a name");
        }
        return savepoint(name);
    }

    private Savepoint savepoint(String name) throws SQLException {
        checkOpen();
        if (autoCommit) {
            throw new SQLException(db.name() + ": savepoints need a transaction; call "
                    + "setAutoCommit(false) first");
        }
        try {
            return tx().savepoint(name, readOnly, QueryTimeout.NONE);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        savepointStep(Op.ROLLBACK_TO, savepoint);
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        savepointStep(Op.RELEASE, savepoint);
    }

    private void savepointStep(Op op, Savepoint savepoint) throws SQLException {
        checkOpen();
        if (!(savepoint instanceof JdbcSavepoint) || !inTransaction()) {
            throw new SQLException(db.name() + ": not a savepoint of this connection's open "
                    + "transaction");
        }
        try {
            tx.savepointStep(op, (JdbcSavepoint) savepoint);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly != this.readOnly && inTransaction()) {
            throw new SQLException(db.name() + ": setReadOnly cannot change a transaction in "
                    + "progress; commit or roll back first");
        }
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED:
            case Connection.TRANSACTION_READ_COMMITTED:
            case Connection.TRANSACTION_REPEATABLE_READ:
            case Connection.TRANSACTION_SERIALIZABLE:
                isolation = level; // SQLite is always serializable: at least what was asked for
                return;
            default:
                throw new SQLException("unknown transaction isolation level " + level);
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        try {
            List<JdbcStatement> open = statements;
            statements = null; // each close below calls statementClosed, which then skips
            if (open != null) {
                for (JdbcStatement s : open) {
                    s.close();
                }
            }
            end(false); // closing without a commit rolls back
        } finally {
            closed = true;
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        close();
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw new SQLException("timeout must not be negative, was " + timeout);
        }
        return !closed && db.database().state() == dev.lanes.DatabaseState.RUNNING;
    }

    // ------------------------------------------------------------------ statements

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return track(new JdbcStatement(this));
    }

    @Override
    public Statement createStatement(int type, int concurrency) throws SQLException {
        checkCursor(type, concurrency, holdability);
        return createStatement();
    }

    @Override
    public Statement createStatement(int type, int concurrency, int holdability)
            throws SQLException {
        checkCursor(type, concurrency, holdability);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepare(sql, false);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency)
            throws SQLException {
        checkCursor(type, concurrency, holdability);
        return prepare(sql, false);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency,
            int holdability) throws SQLException {
        checkCursor(type, concurrency, holdability);
        return prepare(sql, false);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys)
            throws SQLException {
        return prepare(sql, autoGeneratedKeys == Statement.RETURN_GENERATED_KEYS);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes)
            throws SQLException {
        return prepare(sql, true);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames)
            throws SQLException {
        return prepare(sql, true);
    }

    private PreparedStatement prepare(String sql, boolean keys) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw new SQLException("sql must not be null");
        }
        return track(new JdbcPreparedStatement(this, sql, keys));
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite has no stored procedures");
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency)
            throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite has no stored procedures");
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite has no stored procedures");
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    // ------------------------------------------------------------------ metadata, settings

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return JdbcMetaData.of(this, db, metaData);
    }

    /** Runs a metadata body where the connection's statements run (its transaction, if any). */
    <T> T onItsConnection(dev.lanes.SqlFunction<T> body) throws SQLException {
        return metaDataCall(() -> inTransaction() && db.metaDataInTransaction()
                ? tx.runOnConnection(body) : db.metaData(body));
    }

    /** A metadata call, its failures as SQL exceptions. */
    private <T> T metaDataCall(java.util.concurrent.Callable<T> call) throws SQLException {
        try {
            return call.call();
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException(db.name() + ": a metadata call failed: " + e, e);
        }
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        if (iface == Database.class) {
            return iface.cast(db.database());
        }
        // typed, as every refusal: a body on a cluster database gets this connection
        throw SqlExceptions.of(new InvalidRequestException(WriteOutcome.NOT_STARTED, db.name()
                + ": this connection has no " + iface.getName() + " behind it to unwrap to: it "
                + "holds no driver connection (it turns each statement into a request of its "
                + "database), and there is none at all on a cluster database", null));
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface == Database.class;
    }

    @Override
    public String toString() {
        return "LanesConnection[" + db.name() + (closed ? ", closed" : "")
                + (autoCommit ? "" : tx == null ? ", manual commit" : tx.describe()) + "]";
    }
}

package dev.lanes.internal.jdbc;

import dev.lanes.Database;
import dev.lanes.LanesException;
import dev.lanes.ReadOptions;
import dev.lanes.internal.guard.Refusals;
import dev.lanes.internal.reader.ReadSnapshot;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.writer.InteractiveTransaction;
import dev.lanes.internal.writer.WriteRequest.Returns;
import dev.lanes.internal.writer.WriteRequest.Savepoint.Op;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * The {@link Connection} of {@code db.dataSource()}: a light handle that holds no SQLite
 * connection of its own. Each statement becomes a request of its database:
 *
 * <ul>
 *   <li>in auto-commit mode (the default), a statement classified read-only runs on a reader, as
 *       {@code db.query} does; anything else is one write on the writer lane, grouped with its
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
 * <h2>Concurrency</h2>
 * Not thread-safe, as JDBC connections are not: one user at a time (a connection pool or a
 * transaction manager binds it to one thread). The database underneath is thread-safe.
 */
final class LogicalConnection implements Connection {
    /** What an execution was asked for. */
    enum Intent {
        /** {@code executeQuery}: rows. */
        QUERY,
        /** {@code executeUpdate}: a count. */
        UPDATE,
        /** {@code execute}: rows when the statement returns any, else a count. */
        ANY
    }

    /** What an execution produced: rows, or a count and the keys it generated. */
    record Outcome(ResultData rows, int count, Statements.Update keys) {}

    private final JdbcBackend db;
    private final List<Statement> statements = new ArrayList<>();
    private boolean closed;
    private boolean autoCommit = true;
    private boolean readOnly;
    private int holdability = ResultSet.CLOSE_CURSORS_AT_COMMIT;
    private int isolation = Connection.TRANSACTION_SERIALIZABLE;
    private final Properties clientInfo = new Properties();
    /** The open read-write transaction, pinned on the lane; null when none. */
    private InteractiveTransaction transaction;
    /** The open read-only transaction, a snapshot on a reader; null when none. */
    private ReadSnapshot snapshot;
    private int savepoints;
    /** {@code last_insert_rowid()} and {@code changes()} of this connection's own writes. */
    private final ConnectionFunctions functions = new ConnectionFunctions();

    LogicalConnection(JdbcBackend db) {
        this.db = db;
    }

    Connection proxy() {
        return this;
    }

    // ------------------------------------------------------------------ execution

    /** Runs one statement where its kind and the connection's mode say. */
    Outcome run(SqlShape shape, Object[] args, Intent intent, boolean keys,
            ReadOptions readOptions) throws SQLException {
        checkOpen();
        String sql = shape.sql();
        boolean read = intent != Intent.UPDATE && shape.read();
        Returns returns = intent == Intent.QUERY || (intent == Intent.ANY && shape.returnsRows())
                ? Returns.ROWS : keys ? Returns.KEYS : Returns.COUNT;
        try {
            if (autoCommit) {
                return read ? new Outcome(ownOr(shape, q -> db.queryData(readOptions, q, args)),
                        -1, null) : autoCommitWrite(shape, args, returns);
            }
            begin();
            if (snapshot != null) {
                return new Outcome(ownOr(shape, q -> snapshot.query(q, args)), -1, null);
            }
            return outcomeOf(transaction.execute(sql, args, read ? Returns.ROWS : returns));
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    /**
     * One auto-commit write. An insert fetches its rowid (one more step on the lane, as the driver
     * does after every insert) so that a later {@code SELECT last_insert_rowid()} on this
     * connection answers what it inserted.
     */
    private Outcome autoCommitWrite(SqlShape shape, Object[] args, Returns returns) {
        Returns asked = returns == Returns.COUNT && shape.mayInsert() ? Returns.KEYS : returns;
        Outcome o = outcomeOf(db.write(shape.sql(), args, asked));
        if (o.rows() == null) {
            functions.wrote(shape, o.count(), o.keys());
        }
        return o;
    }

    /**
     * The connection's own answer to a query, or the query's result with this connection's
     * {@code last_insert_rowid()} and {@code changes()} in it (see {@link ConnectionFunctions}).
     */
    private ResultData ownOr(SqlShape shape,
            java.util.function.Function<String, ResultData> query) {
        ResultData own = functions.answer(shape);
        return own != null ? own : query.apply(functions.substituted(shape));
    }

    private static Outcome outcomeOf(Object result) {
        if (result instanceof ResultData) {
            return new Outcome((ResultData) result, -1, null);
        }
        if (result instanceof Statements.Update) {
            Statements.Update u = (Statements.Update) result;
            return new Outcome(null, u.count(), u);
        }
        return new Outcome(null, (Integer) result, null);
    }

    /** A batch of one prepared statement with several parameter sets. */
    int[] runBatch(String sql, List<Object[]> parameterSets) throws SQLException {
        List<dev.lanes.Statement> batch = new ArrayList<>(parameterSets.size());
        for (Object[] p : parameterSets) {
            batch.add(dev.lanes.Statement.of(sql, p));
        }
        return runStatements(batch);
    }

    /** A batch of plain statements. */
    int[] runBatch(List<String> sqls) throws SQLException {
        List<dev.lanes.Statement> batch = new ArrayList<>(sqls.size());
        for (String sql : sqls) {
            batch.add(dev.lanes.Statement.of(sql));
        }
        return runStatements(batch);
    }

    private int[] runStatements(List<dev.lanes.Statement> batch) throws SQLException {
        checkOpen();
        try {
            if (autoCommit) {
                return db.database().executeBatch(batch); // one atomic request
            }
            begin();
            int[] counts = new int[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                dev.lanes.Statement s = batch.get(i);
                if (snapshot != null) {
                    Refusals.writeOnReader(db.name(), s.sql());
                }
                counts[i] = (Integer) transaction.execute(s.sql(), s.args().toArray(),
                        Returns.COUNT);
            }
            return counts;
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    /** Begins the logical transaction at its first statement, as its mode says. */
    private void begin() {
        if (transaction != null || snapshot != null) {
            return;
        }
        if (readOnly) {
            snapshot = db.snapshot();
        } else {
            transaction = db.begin();
        }
    }

    void statementClosed(Statement s) {
        statements.remove(s);
    }

    private <S extends Statement> S track(S s) {
        statements.add(s);
        return s;
    }

    private void checkOpen() throws SQLException {
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
        InteractiveTransaction tx = transaction;
        ReadSnapshot s = snapshot;
        transaction = null;
        snapshot = null;
        savepoints = 0;
        try {
            if (tx != null) {
                if (commit) {
                    tx.commit();
                } else {
                    tx.rollback();
                }
            }
            if (s != null) {
                s.close();
            }
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
        int id = ++savepoints;
        String actual = name != null ? name : "lanes_jdbc_" + id;
        try {
            begin();
            control(Op.SET, actual);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
        return new NamedSavepoint(name == null ? id : 0, actual, name != null);
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
        if (!(savepoint instanceof NamedSavepoint) || (transaction == null && snapshot == null)) {
            throw new SQLException(db.name() + ": not a savepoint of this connection's open "
                    + "transaction");
        }
        try {
            control(op, ((NamedSavepoint) savepoint).sqlName);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    private void control(Op op, String name) {
        if (snapshot != null) {
            snapshot.savepoint(dev.lanes.internal.writer.WriteRequest.Savepoint.sql(op, name));
        } else {
            transaction.savepoint(op, name);
        }
    }

    /** A savepoint of this connection: its id (unnamed) or its name, and the SQL name. */
    private static final class NamedSavepoint implements Savepoint {
        private final int id;
        private final String sqlName;
        private final boolean named;

        NamedSavepoint(int id, String sqlName, boolean named) {
            this.id = id;
            this.sqlName = sqlName;
            this.named = named;
        }

        @Override
        public int getSavepointId() throws SQLException {
            if (named) {
                throw new SQLException("a named savepoint has no id");
            }
            return id;
        }

        @Override
        public String getSavepointName() throws SQLException {
            if (!named) {
                throw new SQLException("an unnamed savepoint has no name");
            }
            return sqlName;
        }
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly != this.readOnly && (transaction != null || snapshot != null)) {
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
            for (Statement s : new ArrayList<>(statements)) {
                s.close();
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
        return track(JdbcStatement.plain(this));
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
        return track(JdbcStatement.prepared(this, sql, keys));
    }

    private static void checkCursor(int type, int concurrency, int holdability)
            throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw new SQLFeatureNotSupportedException("only TYPE_FORWARD_ONLY, "
                    + "CONCUR_READ_ONLY result sets are supported");
        }
        if (holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT
                && holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw new SQLException("unknown holdability " + holdability);
        }
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
        return JdbcMetaData.of(this, db);
    }

    /** Runs a metadata body where the connection's statements run (its transaction, if any). */
    <T> T onItsConnection(dev.lanes.SqlFunction<T> body) throws SQLException {
        try {
            if (transaction != null) {
                return transaction.run(body);
            }
            if (snapshot != null) {
                return snapshot.run(body);
            }
            return db.database().read(body);
        } catch (LanesException e) {
            throw SqlExceptions.of(e);
        }
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen(); // SQLite has no catalogs: ignored, as JDBC lets a driver
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen(); // SQLite has no schemas to switch to: ignored, as sqlite-jdbc does
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        checkCursor(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
        this.holdability = holdability;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return holdability;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) {
            throw new SQLFeatureNotSupportedException("SQLite has no user-defined types");
        }
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        clientInfo.clear();
        if (properties != null) {
            clientInfo.putAll(properties);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        throw new SQLFeatureNotSupportedException("a local database has no network timeout");
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public Clob createClob() throws SQLException {
        throw new SQLFeatureNotSupportedException("createClob is not supported; bind a String");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw new SQLFeatureNotSupportedException("createBlob is not supported; bind a byte[]");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw new SQLFeatureNotSupportedException("createNClob is not supported; bind a String");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite has no XML type");
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite has no array type");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite has no structured type");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        if (iface == Database.class) {
            return iface.cast(db.database());
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface == Database.class;
    }

    @Override
    public String toString() {
        return "LanesConnection[" + db.name() + (closed ? ", closed" : "")
                + (autoCommit ? "" : transaction != null ? ", in a transaction"
                : snapshot != null ? ", in a read-only transaction" : ", manual commit") + "]";
    }
}

package dev.lanes.internal.guard;

import dev.lanes.internal.sql.SqlText;
import dev.lanes.InvalidRequestException;
import dev.lanes.WriteOutcome;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
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
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * The {@link Connection} a body receives: the lane's real connection behind a guard that refuses
 * transaction control, since the lane owns the transaction.
 *
 * <p>Refused before SQLite runs anything, with {@link InvalidRequestException}: {@code commit},
 * {@code rollback}, savepoints, {@code setAutoCommit}, {@code close}, {@code abort}, changes to
 * connection-wide settings, and any SQL text holding a statement that begins with {@code BEGIN},
 * {@code COMMIT}, {@code END}, {@code ROLLBACK}, {@code SAVEPOINT} or {@code RELEASE}. Statements
 * it hands out are guarded the same way, and closed when the request ends.
 *
 * <p>Confinement: valid only on the thread that runs the request and only until the request
 * ends; any other use fails. A refusal is remembered, so a body that swallows it still fails.
 *
 * <p>{@link #unwrap(Class)} is the one deliberate escape hatch to the driver's connection; the
 * lane still verifies the transaction state after every body.
 */
public final class GuardedConnection implements Connection {
    private final Connection delegate;
    private final Thread owner;
    private final boolean inTransaction;
    private final List<Statement> statements = new ArrayList<>(2);
    private final Runnable vacuumCheck;
    private boolean open = true;
    private InvalidRequestException refusal;

    /**
     * @param vacuumCheck runs before any statement that starts with {@code VACUUM} (except
     *     {@code VACUUM INTO}) and may refuse it by throwing; null for none
     */
    public GuardedConnection(Connection delegate, boolean inTransaction, Runnable vacuumCheck) {
        this.delegate = delegate;
        this.owner = Thread.currentThread();
        this.inTransaction = inTransaction;
        this.vacuumCheck = vacuumCheck;
    }

    /** Ends the request: closes the statements the body left open, and refuses later use. */
    public void end() {
        open = false;
        for (Statement s : statements) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // a statement the body broke; closing is best effort and the lane verifies state
            }
        }
        statements.clear();
    }

    /** The first refusal this guard raised, even if the body caught it; null when none. */
    public InvalidRequestException refusal() {
        return refusal;
    }

    private void check() {
        if (!open || Thread.currentThread() != owner) {
            throw refuse("this connection belongs to a request that has ended or runs on "
                    + "another thread; use the connection only inside its body");
        }
    }

    private InvalidRequestException refuse(String message) {
        InvalidRequestException e = new InvalidRequestException(WriteOutcome.NOT_STARTED, message, null);
        if (refusal == null) {
            refusal = e;
        }
        return e;
    }

    private void checkSql(String sql) {
        check();
        if (sql == null) {
            return;
        }
        if (vacuumCheck != null && isVacuumInPlace(sql)) {
            vacuumCheck.run();
        }
        String keyword = SqlText.transactionControl(sql);
        if (keyword != null) {
            throw refuse("transaction control (" + keyword + ") is refused inside a body: the "
                    + "lane owns the transaction; each write already runs atomically");
        }
    }

    private static boolean isVacuumInPlace(String sql) {
        if (!SqlText.firstKeyword(sql).equals("VACUUM")) {
            return false;
        }
        return !sql.toUpperCase(java.util.Locale.ROOT).contains(" INTO ");
    }

    private InvalidRequestException refuseControl(String what) {
        return refuse(what + " is refused inside a body: the lane owns the transaction; each "
                + "write already runs atomically");
    }


    /**
     * Guards a driver object reached through this connection (statement, result set, metadata):
     * SQL passed to execute/addBatch is checked, and whatever it hands back that could lead to
     * the raw connection (a connection, statement, result set or metadata) is guarded in turn.
     */
    private final class ObjectGuard implements InvocationHandler {
        private final Object raw;
        private final Object parent;

        ObjectGuard(Object raw, Object parent) {
            this.raw = raw;
            this.parent = parent;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (method.getDeclaringClass() == Object.class) {
                switch (name) {
                    case "equals":
                        return proxy == args[0];
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    default:
                        return "Guarded" + raw;
                }
            }
            if (raw instanceof Statement && args != null && args.length > 0
                    && args[0] instanceof String
                    && (name.startsWith("execute") || name.equals("addBatch"))) {
                checkSql((String) args[0]);
            } else if (!name.equals("close") && !name.equals("isClosed")) {
                check();
            }
            if (name.equals("getConnection")) {
                return GuardedConnection.this;
            }
            if (name.equals("getStatement") && raw instanceof ResultSet) {
                return parent;
            }
            if (name.equals("unwrap") || name.equals("isWrapperFor")) {
                Class<?> iface = (Class<?>) args[0];
                if (name.equals("isWrapperFor")) {
                    return iface.isInstance(proxy) || iface.isInstance(raw);
                }
                return iface.isInstance(proxy) ? proxy : iface.cast(raw);
            }
            Object result;
            try {
                result = method.invoke(raw, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            // Decide by the declared type: the driver's objects implement several interfaces
            // (its result set is its own ResultSetMetaData).
            Class<?> declared = method.getReturnType();
            if (result != null && declared == ResultSet.class) {
                return guard((ResultSet) result, ResultSet.class, proxy);
            }
            if (result != null && declared == DatabaseMetaData.class) {
                return guard((DatabaseMetaData) result, DatabaseMetaData.class, null);
            }
            return result;
        }
    }

    private <T> T guard(T raw, Class<T> type, Object parent) {
        return type.cast(Proxy.newProxyInstance(GuardedConnection.class.getClassLoader(),
                new Class<?>[] {type}, new ObjectGuard(raw, parent)));
    }

    private <S extends Statement> S track(S raw, Class<S> type) {
        statements.add(raw);
        return guard(raw, type, null);
    }

    // ---- statements

    @Override
    public Statement createStatement() throws SQLException {
        check();
        return track(delegate.createStatement(), Statement.class);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency)
            throws SQLException {
        check();
        return track(delegate.createStatement(resultSetType, resultSetConcurrency), Statement.class);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        check();
        return track(delegate.createStatement(resultSetType, resultSetConcurrency,
                resultSetHoldability), Statement.class);
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkSql(sql);
        return track(delegate.prepareStatement(sql), PreparedStatement.class);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType,
            int resultSetConcurrency) throws SQLException {
        checkSql(sql);
        return track(delegate.prepareStatement(sql, resultSetType, resultSetConcurrency),
                PreparedStatement.class);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType,
            int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        checkSql(sql);
        return track(delegate.prepareStatement(sql, resultSetType, resultSetConcurrency,
                resultSetHoldability), PreparedStatement.class);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys)
            throws SQLException {
        checkSql(sql);
        return track(delegate.prepareStatement(sql, autoGeneratedKeys), PreparedStatement.class);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes)
            throws SQLException {
        checkSql(sql);
        return track(delegate.prepareStatement(sql, columnIndexes), PreparedStatement.class);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames)
            throws SQLException {
        checkSql(sql);
        return track(delegate.prepareStatement(sql, columnNames), PreparedStatement.class);
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        checkSql(sql);
        return track(delegate.prepareCall(sql), CallableStatement.class);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        checkSql(sql);
        return track(delegate.prepareCall(sql, resultSetType, resultSetConcurrency),
                CallableStatement.class);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
            int resultSetHoldability) throws SQLException {
        checkSql(sql);
        return track(delegate.prepareCall(sql, resultSetType, resultSetConcurrency,
                resultSetHoldability), CallableStatement.class);
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        check();
        return delegate.nativeSQL(sql);
    }

    // ---- transaction control: the lane's, never the body's

    @Override
    public void setAutoCommit(boolean autoCommit) {
        check();
        throw refuseControl("setAutoCommit");
    }

    @Override
    public boolean getAutoCommit() {
        check();
        return !inTransaction;
    }

    @Override
    public void commit() {
        check();
        throw refuseControl("commit()");
    }

    @Override
    public void rollback() {
        check();
        throw refuseControl("rollback()");
    }

    @Override
    public void rollback(Savepoint savepoint) {
        check();
        throw refuseControl("rollback(Savepoint)");
    }

    @Override
    public Savepoint setSavepoint() {
        check();
        throw refuseControl("setSavepoint()");
    }

    @Override
    public Savepoint setSavepoint(String name) {
        check();
        throw refuseControl("setSavepoint(String)");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) {
        check();
        throw refuseControl("releaseSavepoint");
    }

    @Override
    public void close() {
        check();
        throw refuse("close() is refused inside a body: the lane owns the connection and "
                + "reuses it for later requests");
    }

    @Override
    public void abort(Executor executor) {
        check();
        throw refuse("abort() is refused inside a body: the lane owns the connection");
    }

    @Override
    public boolean isClosed() {
        return !open;
    }

    @Override
    public boolean isValid(int timeout) {
        return open && Thread.currentThread() == owner;
    }

    // ---- connection-wide settings would leak into later requests

    private InvalidRequestException refuseSetting(String what) {
        return refuse(what + " is refused inside a body: the connection is shared with later "
                + "requests; configure the database through DatabaseOptions");
    }

    @Override
    public void setReadOnly(boolean readOnly) {
        check();
        throw refuseSetting("setReadOnly");
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        check();
        return delegate.isReadOnly();
    }

    @Override
    public void setTransactionIsolation(int level) {
        check();
        throw refuseSetting("setTransactionIsolation");
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        check();
        return delegate.getTransactionIsolation();
    }

    @Override
    public void setCatalog(String catalog) {
        check();
        throw refuseSetting("setCatalog");
    }

    @Override
    public String getCatalog() throws SQLException {
        check();
        return delegate.getCatalog();
    }

    @Override
    public void setSchema(String schema) {
        check();
        throw refuseSetting("setSchema");
    }

    @Override
    public String getSchema() throws SQLException {
        check();
        return delegate.getSchema();
    }

    @Override
    public void setHoldability(int holdability) {
        check();
        throw refuseSetting("setHoldability");
    }

    @Override
    public int getHoldability() throws SQLException {
        check();
        return delegate.getHoldability();
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) {
        check();
        throw refuseSetting("setNetworkTimeout");
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        check();
        return delegate.getNetworkTimeout();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) {
        check();
        throw refuseSetting("setTypeMap");
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        check();
        return delegate.getTypeMap();
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        check();
        delegate.setClientInfo(name, value);
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        check();
        delegate.setClientInfo(properties);
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        check();
        return delegate.getClientInfo(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        check();
        return delegate.getClientInfo();
    }

    // ---- plain delegation

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        check();
        return guard(delegate.getMetaData(), DatabaseMetaData.class, null);
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        check();
        return delegate.getWarnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        check();
        delegate.clearWarnings();
    }

    @Override
    public Clob createClob() throws SQLException {
        check();
        return delegate.createClob();
    }

    @Override
    public Blob createBlob() throws SQLException {
        check();
        return delegate.createBlob();
    }

    @Override
    public NClob createNClob() throws SQLException {
        check();
        return delegate.createNClob();
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        check();
        return delegate.createSQLXML();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        check();
        return delegate.createArrayOf(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        check();
        return delegate.createStruct(typeName, attributes);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        check();
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return delegate.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        check();
        return iface.isInstance(this) || delegate.isWrapperFor(iface);
    }
}

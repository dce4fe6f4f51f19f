package dev.lanes.internal.jdbc;

import dev.lanes.ReadOptions;
import dev.lanes.internal.sql.ResultData;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link Statement} or {@link PreparedStatement} of a {@link LogicalConnection}: it collects
 * what to run (the SQL, the parameters, a batch) and hands each execution to its connection,
 * which decides where it runs (a reader, the writer lane, the open transaction). Its results are
 * detached ({@link DetachedResultSet}), so nothing it returns holds a reader or a thread.
 *
 * <p>A dynamic proxy answers the interface: the methods below are the statement; what JDBC lets
 * a driver refuse ({@code cancel}, {@code setCursorName}, arrays, refs, …) fails with {@link
 * SQLFeatureNotSupportedException}.
 *
 * <p>Not thread-safe, as every JDBC statement: one user at a time.
 */
final class JdbcStatement implements InvocationHandler {
    private static final Proxies<Statement> STATEMENTS = Proxies.of(Statement.class);
    private static final Proxies<PreparedStatement> PREPARED = Proxies.of(PreparedStatement.class);

    private final LogicalConnection connection;
    /** The SQL of a prepared statement; null for a plain statement. */
    private final String preparedSql;
    /** How the prepared SQL runs, found once; null for a plain statement. */
    private final SqlShape preparedShape;
    private final boolean generatedKeys;
    private Object[] parameters;
    private final List<Object[]> batchParameters = new ArrayList<>();
    private final List<String> batchSql = new ArrayList<>();
    private Statement self;
    private boolean closed;
    private boolean closeOnCompletion;
    private int maxRows;
    private int queryTimeoutSeconds;
    private ResultSet current;
    private int updateCount = -1;
    private LogicalConnection.Outcome last;

    private JdbcStatement(LogicalConnection connection, String preparedSql, boolean keys) {
        this.connection = connection;
        this.preparedSql = preparedSql;
        this.preparedShape = preparedSql == null ? null : SqlShape.of(preparedSql);
        this.generatedKeys = keys;
        this.parameters = new Object[0];
    }

    static Statement plain(LogicalConnection connection) {
        JdbcStatement s = new JdbcStatement(connection, null, false);
        s.self = STATEMENTS.create(s);
        return s.self;
    }

    static PreparedStatement prepared(LogicalConnection connection, String sql, boolean keys) {
        JdbcStatement s = new JdbcStatement(connection, sql, keys);
        s.self = PREPARED.create(s);
        return (PreparedStatement) s.self;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "Statement[" + (preparedSql == null ? "" : preparedSql) + "]";
            case "close":
                close();
                return null;
            case "isClosed":
                return closed;
            case "unwrap":
                if (((Class<?>) args[0]).isInstance(proxy)) {
                    return proxy;
                }
                throw new SQLException("not a wrapper for " + ((Class<?>) args[0]).getName());
            case "isWrapperFor":
                return ((Class<?>) args[0]).isInstance(proxy);
            default:
                break;
        }
        if (closed) {
            throw new SQLException("the statement is closed");
        }
        if (name.startsWith("set") && args != null && args.length >= 2
                && args[0] instanceof Integer && preparedSql != null
                && method.getDeclaringClass() == PreparedStatement.class) {
            bind((Integer) args[0], name, args);
            return null;
        }
        return call(name, args);
    }

    private Object call(String name, Object[] args) throws SQLException {
        switch (name) {
            case "executeQuery":
                return query(sqlOf(args), args);
            case "executeUpdate":
            case "executeLargeUpdate":
                int n = update(sqlOf(args), args);
                return name.equals("executeLargeUpdate") ? (Object) (long) n : (Object) n;
            case "execute":
                return execute(sqlOf(args), args);
            case "addBatch":
                addBatch(args);
                return null;
            case "clearBatch":
                batchSql.clear();
                batchParameters.clear();
                return null;
            case "executeBatch":
                return executeBatch();
            case "executeLargeBatch":
                return Arrays.stream(executeBatch()).asLongStream().toArray();
            case "clearParameters":
                parameters = new Object[0];
                return null;
            case "getResultSet":
                return current;
            case "getUpdateCount":
                return updateCount;
            case "getLargeUpdateCount":
                return (long) updateCount;
            case "getMoreResults":
                closeCurrent();
                updateCount = -1;
                return false;
            case "getGeneratedKeys":
                return last == null || last.keys() == null
                        ? DetachedResultSet.ofKeys(0, false, self)
                        : DetachedResultSet.ofKeys(last.keys().lastInsertRowid(),
                                last.keys().count() > 0, self);
            case "getConnection":
                return connection.proxy();
            case "getMaxRows":
                return maxRows;
            case "setMaxRows":
                maxRows = Math.max(0, (Integer) args[0]);
                return null;
            case "getQueryTimeout":
                return queryTimeoutSeconds;
            case "setQueryTimeout":
                queryTimeoutSeconds = Math.max(0, (Integer) args[0]);
                return null;
            case "setFetchSize":
            case "setFetchDirection":
            case "setEscapeProcessing":
            case "setPoolable":
            case "setMaxFieldSize":
            case "clearWarnings":
                return null; // hints without effect on a local database
            case "getFetchSize":
            case "getMaxFieldSize":
                return 0;
            case "getFetchDirection":
                return ResultSet.FETCH_FORWARD;
            case "getResultSetType":
                return ResultSet.TYPE_FORWARD_ONLY;
            case "getResultSetConcurrency":
                return ResultSet.CONCUR_READ_ONLY;
            case "getResultSetHoldability":
                return ResultSet.CLOSE_CURSORS_AT_COMMIT;
            case "isPoolable":
                return false;
            case "getWarnings":
                return null;
            case "closeOnCompletion":
                closeOnCompletion = true;
                return null;
            case "isCloseOnCompletion":
                return closeOnCompletion;
            case "getMetaData":
                return null; // known only once it ran; JDBC allows null
            case "getParameterMetaData":
                throw new SQLFeatureNotSupportedException("getParameterMetaData is not supported");
            default:
                throw new SQLFeatureNotSupportedException("Statement." + name
                        + " is not supported");
        }
    }

    /** The SQL of an execute call: the prepared SQL, or the call's first argument. */
    private String sqlOf(Object[] args) throws SQLException {
        if (preparedSql != null) {
            if (args != null && args.length > 0 && args[0] instanceof String) {
                throw new SQLException("a PreparedStatement runs its own SQL; use a Statement "
                        + "for other SQL");
            }
            return preparedSql;
        }
        if (args == null || args.length == 0 || !(args[0] instanceof String)) {
            throw new SQLException("no SQL given");
        }
        return (String) args[0];
    }

    /** Whether this execution asks for generated keys (a flag or key columns at execute). */
    private boolean keys(Object[] args) {
        if (generatedKeys) {
            return true;
        }
        if (args == null || args.length < 2) {
            return false;
        }
        return args[1] instanceof Integer ? (Integer) args[1] == Statement.RETURN_GENERATED_KEYS
                : args[1] != null; // column indexes or names
    }

    private Object[] parametersFor(Object[] args) {
        return preparedSql == null ? new Object[0] : parameters.clone();
    }

    private ReadOptions readOptions() {
        return queryTimeoutSeconds == 0 ? ReadOptions.DEFAULTS
                : ReadOptions.builder().timeout(Duration.ofSeconds(queryTimeoutSeconds)).build();
    }

    private ResultSet query(String sql, Object[] args) throws SQLException {
        LogicalConnection.Outcome o = run(sql, args, LogicalConnection.Intent.QUERY);
        return current;
    }

    private int update(String sql, Object[] args) throws SQLException {
        LogicalConnection.Outcome o = run(sql, args, LogicalConnection.Intent.UPDATE);
        return o.count();
    }

    private boolean execute(String sql, Object[] args) throws SQLException {
        LogicalConnection.Outcome o = run(sql, args, LogicalConnection.Intent.ANY);
        return o.rows() != null;
    }

    private LogicalConnection.Outcome run(String sql, Object[] args,
            LogicalConnection.Intent intent) throws SQLException {
        closeCurrent();
        SqlShape shape = preparedShape != null ? preparedShape : SqlShape.of(sql);
        LogicalConnection.Outcome o = connection.run(shape, parametersFor(args), intent,
                keys(args), readOptions());
        last = o;
        if (o.rows() != null) {
            ResultData rows = maxRows > 0 && o.rows().rows().size() > maxRows
                    ? new ResultData(o.rows().labels(), o.rows().names(),
                            o.rows().declaredTypes(), o.rows().rows().subList(0, maxRows))
                    : o.rows();
            current = DetachedResultSet.of(rows, self);
            updateCount = -1;
        } else {
            updateCount = o.count();
        }
        return o;
    }

    private void addBatch(Object[] args) throws SQLException {
        if (preparedSql != null) {
            if (args != null && args.length > 0) {
                throw new SQLException("a PreparedStatement batches its own SQL; call "
                        + "addBatch() with no argument");
            }
            batchParameters.add(parameters.clone());
        } else {
            batchSql.add(sqlOf(args));
        }
    }

    private int[] executeBatch() throws SQLException {
        closeCurrent();
        try {
            if (preparedSql != null) {
                return connection.runBatch(preparedSql, batchParameters);
            }
            return connection.runBatch(batchSql);
        } finally {
            batchSql.clear();
            batchParameters.clear();
        }
    }

    /** A {@code setX(position, value…)}: the value as the lane will bind it. */
    private void bind(int position, String setter, Object[] args) throws SQLException {
        if (position < 1) {
            throw new SQLException("parameter index " + position + " out of range");
        }
        if (position > parameters.length) {
            parameters = Arrays.copyOf(parameters, position);
        }
        parameters[position - 1] = valueOf(setter, args);
    }

    private static Object valueOf(String setter, Object[] args) throws SQLException {
        Object v = args[1];
        switch (setter) {
            case "setNull":
                return null;
            case "setBinaryStream":
            case "setAsciiStream":
            case "setUnicodeStream":
            case "setBlob":
                return v == null ? null : read((InputStream) v);
            case "setCharacterStream":
            case "setNCharacterStream":
            case "setClob":
            case "setNClob":
                return v == null ? null : read((Reader) v);
            case "setArray":
            case "setRef":
            case "setRowId":
            case "setSQLXML":
            case "setURL":
                throw new SQLFeatureNotSupportedException(setter + " is not supported");
            default:
                return v; // setObject, setString, setInt, setTimestamp… : bound by the driver
        }
    }

    private static byte[] read(InputStream in) throws SQLException {
        try (InputStream stream = in) {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new SQLException("reading the parameter's stream failed", e);
        }
    }

    private static String read(Reader in) throws SQLException {
        try (Reader reader = in) {
            StringBuilder b = new StringBuilder();
            char[] buffer = new char[8192];
            for (int n; (n = reader.read(buffer)) >= 0; ) {
                b.append(buffer, 0, n);
            }
            return b.toString();
        } catch (IOException e) {
            throw new SQLException("reading the parameter's reader failed", e);
        }
    }

    private void closeCurrent() throws SQLException {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    void close() throws SQLException {
        if (!closed) {
            closed = true;
            closeCurrent();
            connection.statementClosed(self);
        }
    }

    /** Unused by the driver's charset rules; kept for ASCII streams of text. */
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

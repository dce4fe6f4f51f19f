package dev.lanes.internal.guard;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.sqlite.SqliteConnections;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Connection} a body receives: the runtime's real connection behind one guard, with a
 * {@linkplain #write write} policy on the writer lane or a {@linkplain #read read} policy on a
 * reader.
 *
 * <p>Every JDBC object reached through the guarded connection is guarded the same way, on both
 * sides: {@link Statement}, {@link PreparedStatement}, {@link CallableStatement}, {@link
 * ResultSet} and {@link DatabaseMetaData}. SQL handed to any of them is checked before SQLite
 * sees it; {@code getConnection()} and {@code ResultSet.getStatement()} lead back to the guarded
 * objects, never to the driver's; and {@code unwrap} is the one documented escape hatch to the
 * driver's objects. The driver hands some of its objects out under a second interface (its
 * result set is its own {@link ResultSetMetaData}, its prepared statement its own {@link
 * ParameterMetaData}), so anything returned that is one of the driver's connections,
 * statements, result sets or metadata is guarded under the declared type, whatever that is: a
 * cast never reaches the driver's object.
 *
 * <p>Both policies refuse, before SQLite runs anything: {@code close} and {@code abort} of the
 * connection, connection-wide settings (isolation, catalog, schema, holdability, network timeout,
 * type map), and the JDBC transaction methods ({@code commit}, {@code rollback}, savepoints,
 * {@code setAutoCommit}). SQL given to any call is admitted by the statement policy of its
 * place ({@link StatementPolicy}): {@link StatementPolicy#WRITE_BODY} on the writer and {@link
 * StatementPolicy#READER} on a reader for a call that runs one statement, {@link
 * StatementPolicy#BODY_SCRIPT} and {@link StatementPolicy#READ_SCRIPT} for {@code
 * Statement.executeUpdate(String)}, which the driver runs whole; {@code ATTACH} is judged against
 * the connection's own attachment limit. On the writer, outside the group's transaction (a
 * maintenance body), an in-place {@code VACUUM} first passes the disk reserve's headroom check
 * and then runs with the one attachment slot SQLite's {@code VACUUM} needs (see {@code
 * SqliteConnections}). The read policy also checks the read's deadline and cancellation before
 * each statement runs. Each refusal is remembered, so a body that swallows it still fails
 * ({@link #refusal()}).
 *
 * <h2>Confinement</h2>
 * A guard has one user: the thread that runs the request, until the request ends ({@link
 * #end()}), after which every call but {@code close} and {@code isClosed} fails. Not thread-safe
 * by design. The statements it handed out are closed when the request ends.
 */
public final class ConnectionGuard {
    /** Checks a read's deadline and cancellation; throws the read's failure when stopped. */
    public interface StopCheck {
        StopCheck NONE = () -> {};

        void check();
    }

    private final String database;
    private final Connection raw;
    private final Thread owner;
    private final boolean reader;
    private final boolean inTransaction;
    private final Runnable vacuumCheck;
    private final StopCheck stopCheck;
    private final Shapes shapes;
    private final Connection connection;
    private final List<Statement> statements = new ArrayList<>(2);
    private boolean open = true;
    private LanesException refusal;

    private ConnectionGuard(String database, Connection raw, boolean reader, boolean inTransaction,
            Runnable vacuumCheck, StopCheck stopCheck, Shapes shapes) {
        this.shapes = shapes;
        this.database = database;
        this.raw = raw;
        this.owner = Thread.currentThread();
        this.reader = reader;
        this.inTransaction = inTransaction;
        this.vacuumCheck = vacuumCheck;
        this.stopCheck = stopCheck;
        this.connection = (Connection) proxy(raw, Connection.class, null);
    }

    /**
     * A guard for a body on the writer lane.
     *
     * @param inTransaction whether the body runs inside the lane's transaction (a write, a
     *     transaction step) rather than on its own (maintenance)
     * @param vacuumCheck run before an in-place {@code VACUUM} outside a transaction, and may
     *     refuse it by throwing; null for none
     */
    public static ConnectionGuard write(String database, Connection raw, boolean inTransaction,
            Runnable vacuumCheck, Shapes shapes) {
        return new ConnectionGuard(database, raw, false, inTransaction, vacuumCheck,
                StopCheck.NONE, shapes);
    }

    /** A guard for a read body, on a reader or on the writer while corked. */
    public static ConnectionGuard read(String database, Connection raw, StopCheck stopCheck,
            Shapes shapes) {
        return new ConnectionGuard(database, raw, true, true, null, stopCheck, shapes);
    }

    /** The guarded connection to hand to the body. */
    public Connection connection() {
        return connection;
    }

    /** The first refusal this guard raised, even if the body caught it; null when none. */
    public LanesException refusal() {
        return refusal;
    }

    /** Ends the request: closes the statements the body left open, and refuses later use. */
    public void end() {
        open = false;
        for (Statement s : statements) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // a statement the body broke; the connection is verified after the body anyway
            }
        }
        statements.clear();
    }

    // ------------------------------------------------------------------ policy

    private LanesException remember(LanesException e) {
        if (refusal == null) {
            refusal = e;
        }
        return e;
    }

    private void checkOwner() {
        if (!open || Thread.currentThread() != owner) {
            throw remember(Refusals.outsideItsRequest(database));
        }
    }

    /**
     * Admits SQL before any statement runs or is prepared with it.
     *
     * @param whole whether the call runs the whole text ({@code Statement.executeUpdate(String)})
     * @return whether it holds an in-place {@code VACUUM} to run outside a transaction, which
     *     needs an attachment slot
     */
    private boolean checkSql(String sql, boolean whole) {
        checkOwner();
        if (sql == null) {
            return false;
        }
        try {
            StatementShape shape = shapes.of(sql);
            StatementPolicy policy = reader ? (whole ? StatementPolicy.READ_SCRIPT
                    : StatementPolicy.READER) : whole ? StatementPolicy.BODY_SCRIPT
                            : StatementPolicy.WRITE_BODY;
            policy.admit(database, shape, shape.attaches() && !reader
                    ? SqliteConnections.attachLimit(raw) : StatementPolicy.UNKNOWN_ATTACH_LIMIT);
            if (reader) {
                stopCheck.check();
                return false;
            }
            boolean vacuum = shape.vacuumsInPlace();
            if (vacuum && vacuumCheck != null) {
                vacuumCheck.run();
            }
            return vacuum && !shape.attaches() && !inTransaction;
        } catch (LanesException e) {
            throw remember(e);
        } catch (SQLException e) {
            throw remember(new InvalidRequestException(WriteOutcome.NOT_STARTED, database
                    + ": cannot read the connection's attachment limit (" + e.getMessage()
                    + "); nothing ran", e));
        }
    }

    /** What a call on the guarded connection itself does, when the policy decides it. */
    private Object connectionCall(String method, Object[] args) throws SQLException {
        switch (method) {
            case "commit":
            case "rollback":
            case "setSavepoint":
            case "releaseSavepoint":
            case "setAutoCommit":
                throw remember(reader ? Refusals.readTransactionMethod(database, method + "()")
                        : Refusals.transactionMethod(database, method + "()"));
            case "getAutoCommit":
                return !inTransaction;
            case "setReadOnly":
                if (reader && Boolean.TRUE.equals(args[0])) {
                    return null; // it is read-only already
                }
                throw remember(reader ? Refusals.readWrite(database)
                        : Refusals.setting(database, "setReadOnly"));
            case "isReadOnly":
                return reader || raw.isReadOnly();
            case "close":
            case "abort":
                throw remember(Refusals.close(database, method + "()"));
            case "setTransactionIsolation":
            case "setCatalog":
            case "setSchema":
            case "setHoldability":
            case "setNetworkTimeout":
            case "setTypeMap":
                throw remember(Refusals.setting(database, method));
            default:
                return NOT_DECIDED;
        }
    }

    private static final Object NOT_DECIDED = new Object();

    // ------------------------------------------------------------------ proxies

    private Object proxy(Object target, Class<?> type, Object parent) {
        return proxy(target, type, parent, false);
    }

    private Object proxy(Object target, Class<?> type, Object parent, boolean vacuums) {
        return Proxy.newProxyInstance(ConnectionGuard.class.getClassLoader(),
                new Class<?>[] {type}, new Guarded(target, parent, vacuums));
    }

    /** Whether a call of this name runs SQL, or compiles or queues it to run later. */
    private static boolean runsSql(String method) {
        return method.startsWith("execute") || method.equals("addBatch")
                || method.startsWith("prepare");
    }

    /**
     * Whether a call of this name runs the whole text it is given: the driver runs {@code
     * Statement.executeUpdate(String)} with {@code sqlite3_exec}, every statement of it, where
     * {@code execute}, {@code executeQuery}, {@code addBatch} and {@code prepare…} take the first
     * statement alone.
     */
    private static boolean runsWhole(String method) {
        return method.equals("executeUpdate") || method.equals("executeLargeUpdate");
    }

    /** Whether {@code o} is one of the driver's objects that lead back to its connection. */
    private static boolean leadsBack(Object o) {
        return o instanceof Connection || o instanceof Statement || o instanceof ResultSet
                || o instanceof DatabaseMetaData;
    }

    /**
     * Guards one driver object. Whatever it hands back that could lead to the driver's
     * connection (a connection, statement, result set or metadata, by the declared return type:
     * the driver's objects implement several interfaces) is guarded in turn.
     */
    private final class Guarded implements InvocationHandler {
        private final Object target;
        /** The guarded statement a result set came from; null elsewhere. */
        private final Object parent;
        /** A prepared statement's: whether its SQL holds an in-place VACUUM (see checkSql). */
        private final boolean preparedVacuum;
        /** A statement's: whether its queued batch holds an in-place VACUUM. */
        private boolean batchVacuum;
        /** What the latest {@link #guard} call found: its SQL holds an in-place VACUUM. */
        private boolean sqlVacuums;

        Guarded(Object target, Object parent, boolean preparedVacuum) {
            this.target = target;
            this.parent = parent;
            this.preparedVacuum = preparedVacuum;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, name, args);
            }
            sqlVacuums = false;
            Object decided = guard(proxy, name, args);
            if (decided != NOT_DECIDED) {
                return decided;
            }
            boolean vacuum = sqlVacuums;
            boolean prepares = name.startsWith("prepare");
            if (name.equals("addBatch")) {
                batchVacuum |= vacuum; // it runs at executeBatch
                vacuum = false;
            } else if (name.equals("clearBatch")) {
                batchVacuum = false;
            } else if (prepares) {
                vacuum = false; // it runs at the prepared statement's execute
            } else if (name.startsWith("execute")) {
                vacuum |= preparedVacuum || (batchVacuum && name.contains("Batch"));
            }
            Object result = vacuum
                    ? SqliteConnections.withAttachSlot(raw, () -> call(method, args))
                    : call(method, args);
            if (name.contains("Batch") && name.startsWith("execute")) {
                batchVacuum = false; // the driver empties the batch when it runs it
            }
            return result == null ? null : wrapResult(proxy, method.getReturnType(), result,
                    prepares && sqlVacuums);
        }

        private Object call(Method method, Object[] args) throws Exception {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Exception) {
                    throw (Exception) cause;
                }
                throw (Error) cause;
            }
        }

        /** The guard's own answer to a call, or {@link #NOT_DECIDED} to pass it on. */
        private Object guard(Object proxy, String name, Object[] args) throws SQLException {
            boolean isConnection = target == raw;
            if (isConnection && name.equals("isClosed")) {
                return !open;
            }
            if (isConnection && name.equals("isValid")) {
                return open && Thread.currentThread() == owner;
            }
            if (!isConnection && (name.equals("close") || name.equals("isClosed"))) {
                return NOT_DECIDED; // closing a statement or result set is always allowed
            }
            boolean runs = runsSql(name);
            if (runs && args != null && args.length > 0 && args[0] instanceof String) {
                sqlVacuums = checkSql((String) args[0], runsWhole(name));
            } else {
                checkOwner();
                if (runs && target instanceof Statement) {
                    try {
                        stopCheck.check(); // a prepared statement runs: is the read still on?
                    } catch (LanesException e) {
                        throw remember(e);
                    }
                }
            }
            if (isConnection) {
                Object decided = connectionCall(name, args);
                if (decided != NOT_DECIDED) {
                    return decided;
                }
            }
            switch (name) {
                case "getConnection":
                    return connection;
                case "getStatement":
                    return target instanceof ResultSet && parent != null ? parent : NOT_DECIDED;
                case "unwrap":
                    Class<?> iface = (Class<?>) args[0];
                    return iface.isInstance(proxy) ? proxy : unwrapTarget(iface);
                case "isWrapperFor":
                    Class<?> type = (Class<?>) args[0];
                    return type.isInstance(proxy) || type.isInstance(target)
                            || (target instanceof java.sql.Wrapper
                                    && ((java.sql.Wrapper) target).isWrapperFor(type));
                default:
                    return NOT_DECIDED;
            }
        }

        private Object unwrapTarget(Class<?> iface) throws SQLException {
            if (iface.isInstance(target)) {
                return target;
            }
            return ((java.sql.Wrapper) target).unwrap(iface);
        }

        private Object wrapResult(Object proxy, Class<?> declared, Object result,
                boolean vacuums) {
            if (declared == Statement.class || declared == PreparedStatement.class
                    || declared == CallableStatement.class) {
                statements.add((Statement) result);
                return proxy(result, declared, null, vacuums);
            }
            if (declared == ResultSet.class) {
                return proxy(result, ResultSet.class, target instanceof Statement ? proxy : null);
            }
            if (declared == DatabaseMetaData.class) {
                return proxy(result, DatabaseMetaData.class, null);
            }
            if (declared == Connection.class) {
                return connection;
            }
            if (declared.isInterface() && leadsBack(result)) {
                // The driver's object under another of its interfaces (ResultSetMetaData,
                // ParameterMetaData): cast back, it would be the raw statement or result set.
                return proxy(result, declared, null);
            }
            return result;
        }

        private Object objectMethod(Object proxy, String name, Object[] args) {
            switch (name) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                default:
                    return "Guarded[" + database + ", " + target + "]";
            }
        }
    }
}

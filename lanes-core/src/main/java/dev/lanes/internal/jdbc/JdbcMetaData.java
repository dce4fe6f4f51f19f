package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Rows;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link DatabaseMetaData} of a {@link LogicalConnection}: each call runs on the driver's
 * metadata where the connection's statements run (inside its transaction when one is open, so
 * that a schema its migration just created is visible; else on a reader), and a result set it
 * returns is read whole into a {@link DetachedResultSet}. {@code getConnection()} is the logical
 * connection, and {@code isReadOnly()} is its mode (the reader it would run on is always
 * read-only). A call without arguments that returns no result set (the product and its version,
 * {@code supportsX()}, limits, keywords) is a constant of the database: it is asked once per data
 * source and remembered ({@link Constants}), because Spring asks {@code getDatabaseProductName()}
 * for each {@code null} bound without a type, and each asking would take a reader.
 */
final class JdbcMetaData {
    /**
     * The proxy class's constructor, found once: {@link Proxy#newProxyInstance} looks the class
     * up on every call, and Spring asks for the metadata for every {@code null} bound untyped.
     */
    private static final MethodHandle PROXY = proxyConstructor();

    private JdbcMetaData() {}

    private static MethodHandle proxyConstructor() {
        Class<?> proxyClass = Proxy.newProxyInstance(JdbcMetaData.class.getClassLoader(),
                new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> null)
                .getClass();
        try {
            return MethodHandles.publicLookup().findConstructor(proxyClass,
                    MethodType.methodType(void.class, InvocationHandler.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no constructor on the proxy class of "
                    + "DatabaseMetaData", e);
        }
    }

    /**
     * The answers of one data source's constant metadata calls.
     *
     * <p>Invariants: thread-safe, shared by every connection of the data source; a value, once
     * present, never changes (a racing first call computes it twice and keeps one, both equal);
     * {@code null} answers are stored as {@link #NULL}.
     */
    static final class Constants {
        private static final Object NULL = new Object();
        private final ConcurrentHashMap<String, Object> answers = new ConcurrentHashMap<>();
    }

    /**
     * The metadata of {@code connection}: a dynamic proxy (the interface has some 180 methods,
     * nearly all answered by the driver's own metadata), equal only to itself, whose {@code
     * unwrap} gives itself.
     */
    static DatabaseMetaData of(LogicalConnection connection, JdbcBackend db, Constants constants) {
        InvocationHandler handler = (proxy, method, args) -> call(proxy, connection, db,
                constants, method, args);
        try {
            return (DatabaseMetaData) PROXY.invoke(handler);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("the metadata's proxy constructor failed", t);
        }
    }

    private static Object call(Object proxy, LogicalConnection connection, JdbcBackend db,
            Constants constants, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "unwrap":
                if (((Class<?>) args[0]).isInstance(proxy)) {
                    return proxy;
                }
                throw new SQLException("not a wrapper for " + ((Class<?>) args[0]).getName());
            case "isWrapperFor":
                return ((Class<?>) args[0]).isInstance(proxy);
            case "toString":
                return "DatabaseMetaData[" + db.name() + "]";
            case "getConnection":
                return connection;
            case "getURL":
                return "jdbc:lanes:" + db.database().path();
            case "getDriverName":
                return "Lanes (on the SQLite JDBC driver)";
            case "supportsGetGeneratedKeys":
            case "supportsSavepoints":
            case "supportsTransactions":
                return true;
            case "supportsResultSetType":
                return (Integer) args[0] == ResultSet.TYPE_FORWARD_ONLY;
            case "supportsResultSetConcurrency":
                return (Integer) args[0] == ResultSet.TYPE_FORWARD_ONLY
                        && (Integer) args[1] == ResultSet.CONCUR_READ_ONLY;
            case "getDefaultTransactionIsolation":
                return java.sql.Connection.TRANSACTION_SERIALIZABLE;
            case "isReadOnly":
                return connection.isReadOnly();
            default:
                break;
        }
        boolean rows = method.getReturnType() == ResultSet.class;
        if (!rows && (args == null || args.length == 0)) {
            Object known = constants.answers.get(method.getName());
            if (known == null) {
                Object asked = ask(connection, db, method, args, false);
                known = constants.answers.computeIfAbsent(method.getName(),
                        k -> asked == null ? Constants.NULL : asked);
            }
            return known == Constants.NULL ? null : known;
        }
        return ask(connection, db, method, args, rows);
    }

    /** Asks the driver's metadata where the connection's statements run. */
    private static Object ask(LogicalConnection connection, JdbcBackend db, Method method,
            Object[] args, boolean rows) throws Exception {
        Object result = connection.onItsConnection(c -> {
            Object value;
            try {
                value = method.invoke(c.getMetaData(), args);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
            }
            if (!rows || value == null) {
                return value;
            }
            try (ResultSet rs = (ResultSet) value) {
                return ResultData.read(rs, Rows.UNLIMITED, db.name(), method.getName());
            }
        });
        return rows && result instanceof ResultData
                ? DetachedResultSet.of((ResultData) result, null) : result;
    }
}

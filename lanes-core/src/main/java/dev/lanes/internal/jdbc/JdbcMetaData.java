package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Rows;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The {@link DatabaseMetaData} of a {@link LogicalConnection}: each call runs on the driver's
 * metadata where the connection's statements run (inside its transaction when one is open, so
 * that a schema its migration just created is visible; else on a reader), and a result set it
 * returns is read whole into a {@link DetachedResultSet}. {@code getConnection()} is the logical
 * connection. Stateless but for its connection.
 */
final class JdbcMetaData {
    private static final Proxies<DatabaseMetaData> PROXIES = Proxies.of(DatabaseMetaData.class);

    private JdbcMetaData() {}

    static DatabaseMetaData of(LogicalConnection connection, JdbcBackend db) {
        return PROXIES.create((proxy, method, args) -> call(proxy, connection, db, method, args));
    }

    private static Object call(Object proxy, LogicalConnection connection, JdbcBackend db,
            Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "DatabaseMetaData[" + db.name() + "]";
            case "getConnection":
                return connection;
            case "unwrap":
                if (((Class<?>) args[0]).isInstance(proxy)) {
                    return proxy;
                }
                throw new SQLException("not a wrapper for " + ((Class<?>) args[0]).getName());
            case "isWrapperFor":
                return ((Class<?>) args[0]).isInstance(proxy);
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
            default:
                break;
        }
        boolean rows = method.getReturnType() == ResultSet.class;
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

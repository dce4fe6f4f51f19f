package dev.lanes.internal.jdbc;

import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Struct;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * What a data-source connection answers without SQLite: the settings SQLite does not act on
 * (catalog, schema, holdability, warnings, type map, client info, network timeout), kept or
 * ignored as JDBC lets a driver, and the factories of the object types SQLite has no values of,
 * refused with what to bind instead. {@link LogicalConnection} adds everything that runs SQL.
 *
 * <p>Not thread-safe, as JDBC connections are not: one user at a time. {@code clientInfo} is
 * made at its first use.
 */
abstract sealed class SettingsConnection implements Connection permits LogicalConnection {
    int holdability = ResultSet.CLOSE_CURSORS_AT_COMMIT;
    /** {@code setClientInfo}'s properties; null while none was set. */
    private Properties clientInfo;

    /** Fails with SQLState {@code 08003} once the connection is closed. */
    abstract void checkOpen() throws SQLException;

    static void checkCursor(int type, int concurrency, int holdability)
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
            if (clientInfo != null) {
                clientInfo.remove(name);
            }
        } else {
            if (clientInfo == null) {
                clientInfo = new Properties();
            }
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        clientInfo = null;
        if (properties != null && !properties.isEmpty()) {
            clientInfo = new Properties();
            clientInfo.putAll(properties);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo == null ? null : clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        if (clientInfo != null) {
            copy.putAll(clientInfo);
        }
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
}

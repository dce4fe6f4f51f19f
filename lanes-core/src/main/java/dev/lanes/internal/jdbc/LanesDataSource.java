package dev.lanes.internal.jdbc;

import dev.lanes.Database;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The {@link DataSource} of one database ({@code db.dataSource()}): it hands out {@link
 * LogicalConnection}s, which hold no SQLite connection until they run something, so getting one
 * is cheap and there is nothing to pool. {@code unwrap(Database.class)} gives the database.
 * User and password are not used (SQLite has none) and are accepted as given.
 *
 * <p>Invariants: thread-safe; connections are independent of each other but for the shared,
 * thread-safe cache of constant metadata answers and the texts whose declared types were asked
 * for ({@link TypesAsked}); the log writer and login timeout are volatile settings JDBC
 * requires, unused by a local database.
 */
public final class LanesDataSource implements DataSource {
    private final JdbcBackend db;
    private final JdbcMetaData.Constants metaData = new JdbcMetaData.Constants();
    private final TypesAsked typesAsked = new TypesAsked();
    private volatile PrintWriter logWriter;
    private volatile int loginTimeout;

    public LanesDataSource(JdbcBackend db) {
        this.db = db;
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (db.database().state() == dev.lanes.DatabaseState.CLOSED) {
            throw new SQLException(db.name() + ": the database is closed", "08003");
        }
        return new LogicalConnection(db, metaData, typesAsked);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("Lanes logs through SLF4J, under dev.lanes.*");
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
        return "LanesDataSource[" + db.name() + "]";
    }
}

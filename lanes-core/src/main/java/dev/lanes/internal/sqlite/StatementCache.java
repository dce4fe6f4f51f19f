package dev.lanes.internal.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded, least-recently-used cache of prepared statements for one connection. Used only by
 * the thread that holds the connection, so it takes no lock.
 */
public final class StatementCache implements AutoCloseable {
    private final Connection connection;
    private final int capacity;
    private final LinkedHashMap<String, PreparedStatement> statements;

    public StatementCache(Connection connection, int capacity) {
        this.connection = connection;
        this.capacity = capacity;
        this.statements = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** A prepared statement for {@code sql}, from the cache or freshly prepared into it. */
    public PreparedStatement get(String sql) throws SQLException {
        PreparedStatement s = statements.get(sql);
        if (s != null && !s.isClosed()) {
            return s;
        }
        s = connection.prepareStatement(sql);
        if (capacity > 0) {
            statements.put(sql, s);
            if (statements.size() > capacity) {
                Iterator<Map.Entry<String, PreparedStatement>> eldest =
                        statements.entrySet().iterator();
                closeQuietly(eldest.next().getValue());
                eldest.remove();
            }
        }
        return s;
    }

    /** Returns a statement after use: an uncached one is closed, a cached one reset. */
    public void release(String sql, PreparedStatement s) {
        if (capacity == 0 || statements.get(sql) != s) {
            closeQuietly(s);
            return;
        }
        try {
            s.clearParameters();
        } catch (SQLException e) {
            statements.remove(sql);
            closeQuietly(s);
        }
    }

    /**
     * Returns a statement after a query whose result set was closed, which reset it: an
     * uncached one is closed, a cached one is kept with its parameters (the next run clears them
     * only when it does not bind every one again).
     */
    public void done(String sql, PreparedStatement s) {
        if (capacity == 0 || statements.get(sql) != s) {
            closeQuietly(s);
        }
    }

    /** The connection the statements belong to. */
    public Connection connection() {
        return connection;
    }

    /** Drops a statement that failed, so the next use prepares it again. */
    public void evict(String sql, PreparedStatement s) {
        if (statements.get(sql) == s) {
            statements.remove(sql);
        }
        closeQuietly(s);
    }

    public int size() {
        return statements.size();
    }

    @Override
    public void close() {
        for (PreparedStatement s : statements.values()) {
            closeQuietly(s);
        }
        statements.clear();
    }

    private static void closeQuietly(PreparedStatement s) {
        try {
            s.close();
        } catch (SQLException ignored) {
            // the statement is being discarded; nothing depends on its close
        }
    }
}

package dev.lanes.internal.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded, least-recently-used cache of prepared statements for one connection.
 *
 * <p>The statements live in an access-ordered map, whose every hit relinks its entry as the most
 * recent. A connection mostly runs the same text again (a point read, a repeated insert), so the
 * most recent entry is also kept in {@link #lastSql}/{@link #lastStatement}, and a lookup of that
 * very text ({@code ==}, as the callers pass the one string of a statement shape or of their
 * code) is answered from there without touching the map: that entry is already the most recent,
 * so the order, and so which statement goes out past the capacity, is exactly the map's.
 * Invariant: when {@code lastSql} is not null, the map holds {@code lastStatement} under it, as
 * its most recently used entry; every lookup, insertion and removal in the map keeps that so
 * ({@link #lookup}, {@link #put}, {@link #forget}).
 *
 * <p>Concurrency: used only by the thread that holds the connection (its lease or turn hands it
 * over with a happens-before), so it takes no lock.
 */
public final class StatementCache implements AutoCloseable {
    private final Connection connection;
    private final int capacity;
    private final LinkedHashMap<String, PreparedStatement> statements;
    /** The text of the most recently used entry; null when none is known. */
    private String lastSql;
    /** The statement cached under {@link #lastSql}. */
    private PreparedStatement lastStatement;

    public StatementCache(Connection connection, int capacity) {
        this.connection = connection;
        this.capacity = capacity;
        this.statements = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** A prepared statement for {@code sql}, from the cache or freshly prepared into it. */
    public PreparedStatement get(String sql) throws SQLException {
        PreparedStatement s = lookup(sql);
        if (s != null && !s.isClosed()) {
            return s;
        }
        s = connection.prepareStatement(sql);
        if (capacity > 0) {
            put(sql, s);
        }
        return s;
    }

    /** Returns a statement after use: an uncached one is closed, a cached one reset. */
    public void release(String sql, PreparedStatement s) {
        if (capacity == 0 || lookup(sql) != s) {
            closeQuietly(s);
            return;
        }
        try {
            s.clearParameters();
        } catch (SQLException e) {
            forget(sql);
            closeQuietly(s);
        }
    }

    /**
     * Returns a statement after a query whose result set was closed, which reset it: an
     * uncached one is closed, a cached one is kept with its parameters (the next run clears them
     * only when it does not bind every one again).
     */
    public void done(String sql, PreparedStatement s) {
        if (capacity == 0 || lookup(sql) != s) {
            closeQuietly(s);
        }
    }

    /** The connection the statements belong to. */
    public Connection connection() {
        return connection;
    }

    /** Drops a statement that failed, so the next use prepares it again. */
    public void evict(String sql, PreparedStatement s) {
        if (lookup(sql) == s) {
            forget(sql);
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
        lastSql = null;
        lastStatement = null;
    }

    /**
     * The statement cached for {@code sql}, or null, counted as a use: the most recent entry
     * from its own fields, any other from the map, which makes it the most recent.
     */
    private PreparedStatement lookup(String sql) {
        if (sql == lastSql) {
            return lastStatement;
        }
        PreparedStatement s = statements.get(sql);
        if (s != null) {
            lastSql = sql;
            lastStatement = s;
        }
        return s;
    }

    /** Caches {@code s} as the most recent entry, closing the least recent one past capacity. */
    private void put(String sql, PreparedStatement s) {
        statements.put(sql, s);
        if (statements.size() > capacity) {
            Iterator<Map.Entry<String, PreparedStatement>> eldest =
                    statements.entrySet().iterator();
            closeQuietly(eldest.next().getValue());
            eldest.remove();
        }
        lastSql = sql;
        lastStatement = s;
    }

    /** Removes {@code sql}'s entry; the most recent one is then no longer known. */
    private void forget(String sql) {
        statements.remove(sql);
        lastSql = null;
        lastStatement = null;
    }

    private static void closeQuietly(PreparedStatement s) {
        try {
            s.close();
        } catch (SQLException ignored) {
            // the statement is being discarded; nothing depends on its close
        }
    }
}

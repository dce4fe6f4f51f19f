package dev.lanes.internal.sql;

import dev.lanes.Row;
import dev.lanes.internal.sqlite.DriverInternals;
import dev.lanes.internal.sqlite.StatementCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;
import org.sqlite.SQLiteConnection;

/**
 * The one way the runtime runs a statement it was given as text and arguments: {@code execute},
 * each statement of a batch, a transaction's {@code execute} and {@code query}, a reader's
 * query, a query while corked, and their profiles. Every query reads its rows through {@link
 * Rows}, so {@code maxResultBytes} holds on every path. Stateless; the caller owns the connection
 * and runs on its thread.
 */
public final class Statements {
    private Statements() {}

    /**
     * Runs one statement as an update on a prepared statement of {@code cache}.
     *
     * @return the rows it changed; 0 for a statement that changes none (DDL, a pragma)
     */
    public static int update(StatementCache cache, String sql, Object[] args) throws SQLException {
        PreparedStatement s = cache.get(sql);
        try {
            int count = update(s, cache.connection(), args);
            cache.release(sql, s);
            return count;
        } catch (SQLException | RuntimeException e) {
            cache.evict(sql, s);
            throw e;
        }
    }

    /**
     * Runs a query on a prepared statement of {@code cache} and reads its rows, at most {@code
     * maxResultBytes} of them in all.
     */
    public static List<Row> query(StatementCache cache, String sql, Object[] args,
            long maxResultBytes, String database) throws SQLException {
        PreparedStatement s = cache.get(sql);
        try {
            bindCached(s, args);
            List<Row> rows;
            try (ResultSet rs = s.executeQuery()) { // closing it resets the statement
                rows = Rows.read(rs, maxResultBytes, database, sql);
            }
            cache.done(sql, s);
            return rows;
        } catch (SQLException | RuntimeException e) {
            cache.evict(sql, s);
            throw e;
        }
    }

    /**
     * Runs a query on a prepared statement of {@code cache} and hands each row to {@code each}
     * as it is stepped (see {@link Rows#stream}); whatever {@code each} throws ends the query and
     * propagates unchanged, the statement reset or dropped.
     *
     * @return the rows handed over
     */
    public static long stream(StatementCache cache, String sql, Object[] args,
            Consumer<Row> each) throws SQLException {
        PreparedStatement s = cache.get(sql);
        try {
            bindCached(s, args);
            long rows;
            try (ResultSet rs = s.executeQuery()) {
                rows = Rows.stream(rs, each);
            }
            cache.done(sql, s);
            return rows;
        } catch (SQLException | RuntimeException | Error e) {
            cache.evict(sql, s);
            throw e;
        }
    }

    /** {@link #stream(StatementCache, String, Object[], Consumer)} on a guarded connection. */
    public static long stream(Connection guarded, String sql, Object[] args, Consumer<Row> each)
            throws SQLException {
        try (PreparedStatement s = guarded.prepareStatement(sql)) {
            Rows.bind(s, args);
            try (ResultSet rs = s.executeQuery()) {
                return Rows.stream(rs, each);
            }
        }
    }

    /**
     * {@link #query(StatementCache, String, Object[], long, String)}, with the columns'
     * metadata, for a JDBC result set.
     */
    public static ResultData queryDetailed(StatementCache cache, String sql, Object[] args,
            long maxResultBytes, String database) throws SQLException {
        PreparedStatement s = cache.get(sql);
        try {
            bindCached(s, args);
            ResultData data;
            try (ResultSet rs = s.executeQuery()) {
                data = ResultData.read(rs, maxResultBytes, database, sql);
            }
            cache.done(sql, s);
            return data;
        } catch (SQLException | RuntimeException e) {
            cache.evict(sql, s);
            throw e;
        }
    }

    /**
     * Runs a query on a prepared statement of {@code cache} and leaves its result set open, for
     * a caller that reads it page by page and then ends it with {@link #closeQuery}. On failure
     * the statement is evicted and nothing stays open.
     */
    public static ResultSet openQuery(StatementCache cache, String sql, Object[] args)
            throws SQLException {
        PreparedStatement s = cache.get(sql);
        try {
            bindCached(s, args);
            return s.executeQuery();
        } catch (SQLException | RuntimeException e) {
            cache.evict(sql, s);
            throw e;
        }
    }

    /**
     * Ends a query of {@link #openQuery}: closing its result set resets the statement, which
     * stays cached, unless {@code failed} (or the close fails), when it is evicted. Never throws.
     */
    public static void closeQuery(StatementCache cache, String sql, ResultSet rs,
            boolean failed) {
        PreparedStatement s;
        try {
            s = (PreparedStatement) rs.getStatement();
        } catch (SQLException e) {
            return; // the driver closed it already: nothing is held
        }
        try {
            rs.close();
        } catch (SQLException | RuntimeException e) {
            failed = true;
        }
        if (failed) {
            cache.evict(sql, s);
        } else {
            cache.done(sql, s);
        }
    }

    /**
     * Binds {@code args} to a cached statement. It keeps the previous run's arguments, and
     * needs no clearing: {@link Rows#bind} binds every parameter again, or refuses the run.
     */
    private static void bindCached(PreparedStatement s, Object[] args) throws SQLException {
        Rows.bind(s, args);
    }

    /** What an update did: the rows it changed and the rowid of the last row it inserted. */
    public record Update(int count, long lastInsertRowid) {}

    /**
     * Runs one statement as an update on a prepared statement of {@code cache}, and reads {@code
     * last_insert_rowid()} right after it, on the same connection, for generated keys.
     */
    public static Update updateWithKeys(StatementCache cache, String sql, Object[] args)
            throws SQLException {
        int count = update(cache, sql, args);
        if (count == 0) {
            return new Update(0, 0);
        }
        PreparedStatement s = cache.get(LAST_INSERT_ROWID);
        try {
            long rowid = DriverInternals.isDriverStatement(s) ? DriverInternals.stepForLong(s)
                    : lastInsertRowid(s);
            cache.done(LAST_INSERT_ROWID, s);
            return new Update(count, rowid);
        } catch (SQLException | RuntimeException e) {
            cache.evict(LAST_INSERT_ROWID, s);
            throw new ChangedThenFailed("the statement changed " + count + " rows, then reading "
                    + "last_insert_rowid() failed: " + e.getMessage(), e);
        }
    }

    /**
     * A statement that changed rows and then failed (reading its generated key): unlike a
     * failure of SQLite's own, its changes are still in the transaction. A cluster's writer
     * connection throws it too, for the same reason.
     */
    public static final class ChangedThenFailed extends SQLException {
        private static final long serialVersionUID = 1L;

        public ChangedThenFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final String LAST_INSERT_ROWID = "SELECT last_insert_rowid()";

    /*
     * The driver's statement is stepped directly (DriverInternals.stepForLong): through a
     * ResultSet, whose close forgets the column names, every fetch read the name again (a native
     * call and four objects) on top of the driver's reset and bookkeeping, and cost about 2 µs on
     * the writer's thread beside an insert's 4.5 µs (stepped: about 0.3 µs; one connection on
     * this project's machine). Left reset, as closing a result set leaves it, so the JDBC path
     * below, and a query of the same text, can use the same cached statement next.
     */
    private static long lastInsertRowid(PreparedStatement s) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** {@link #query(Connection, String, Object[], long, String)}, with the columns' metadata. */
    public static ResultData queryData(Connection guarded, String sql, Object[] args,
            long maxResultBytes, String database) throws SQLException {
        try (PreparedStatement s = guarded.prepareStatement(sql)) {
            Rows.bind(s, args);
            try (ResultSet rs = s.executeQuery()) {
                return ResultData.read(rs, maxResultBytes, database, sql);
            }
        }
    }

    /** Runs a query on a connection that is already guarded (the writer's, while corked). */
    public static List<Row> query(Connection guarded, String sql, Object[] args,
            long maxResultBytes, String database) throws SQLException {
        try (PreparedStatement s = guarded.prepareStatement(sql)) {
            Rows.bind(s, args);
            try (ResultSet rs = s.executeQuery()) {
                return Rows.read(rs, maxResultBytes, database, sql);
            }
        }
    }

    /**
     * Runs the statements of a batch in order on a body's guarded connection, stopping at the
     * first failure.
     *
     * @return each statement's update count
     * @throws BatchFailure naming the statement that failed
     */
    public static int[] batch(Connection guarded, List<dev.lanes.Statement> batch)
            throws BatchFailure {
        int[] counts = new int[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            dev.lanes.Statement st = batch.get(i);
            try (PreparedStatement s = guarded.prepareStatement(st.sql())) {
                counts[i] = update(s, guarded, st.args().toArray());
            } catch (Exception e) {
                throw new BatchFailure(i, st.sql(), e);
            }
        }
        return counts;
    }

    /** Runs the statements of a script in order on a body's guarded connection. */
    public static int script(Connection guarded, List<String> statements)
            throws SQLException, BatchFailure {
        try (java.sql.Statement s = guarded.createStatement()) {
            for (int i = 0; i < statements.size(); i++) {
                try {
                    s.execute(statements.get(i));
                } catch (Exception e) {
                    throw new BatchFailure(i, statements.get(i), e);
                }
            }
        }
        return statements.size();
    }

    /**
     * Binds and runs {@code s} as an update. The driver reports {@code sqlite3_changes()}, which a
     * statement that changes no rows (DDL, a pragma) leaves at the previous statement's count,
     * so the count is taken only when {@code sqlite3_total_changes()} moved.
     */
    private static int update(PreparedStatement s, Connection c, Object[] args)
            throws SQLException {
        Rows.bind(s, args);
        long before = totalChanges(c);
        int count = s.executeUpdate();
        return totalChanges(c) == before ? 0 : count;
    }

    /** {@code sqlite3_total_changes()} of the connection (through a guard's unwrap, if any). */
    public static long totalChanges(Connection c) throws SQLException {
        return DriverInternals.totalChanges(raw(c));
    }

    private static SQLiteConnection raw(Connection c) throws SQLException {
        return c instanceof SQLiteConnection ? (SQLiteConnection) c
                : c.unwrap(SQLiteConnection.class);
    }
}

package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingResultSet;
import dev.lanes.internal.types.JdbcDates;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * A result set a body reached, guarded: {@code getStatement()} leads back to the guarded
 * statement it came from (or guards the driver's, for a metadata result), its metadata is
 * guarded, and its date getters ({@code getTimestamp}, {@code getDate}, {@code getTime}, {@code
 * getObject} to a {@code java.sql} or {@code java.time} date type) read the stored value by
 * Lanes' value convention ({@link JdbcDates}), as the data source's result sets and {@code Row}
 * do, not by the driver's. Closing it is always allowed. Not thread-safe: the request's thread
 * only.
 */
final class GuardedResultSet extends DelegatingResultSet
        implements Guarded {
    private final ConnectionGuard guard;
    private final ResultSet target;
    /** The guarded statement it came from; null for a metadata result. */
    private final Statement parent;

    GuardedResultSet(ConnectionGuard guard, ResultSet target, Statement parent) {
        this.guard = guard;
        this.target = target;
        this.parent = parent;
    }

    @Override
    protected ResultSet delegate() {
        guard.checkOwner();
        return target;
    }

    @Override
    public Statement getStatement() throws SQLException {
        if (parent != null) {
            guard.checkOwner();
            return parent;
        }
        return guard.statement(delegate().getStatement());
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        return guard.resultSetMetaData(delegate().getMetaData());
    }

    @Override
    public void close() throws SQLException {
        target.close(); // always allowed
    }

    @Override
    public boolean isClosed() throws SQLException {
        return target.isClosed();
    }

    // ------------------------------------------------------------------ dates

    /** The stored value: Long, Double, String, byte[] or null. */
    private Object stored(int columnIndex) throws SQLException {
        Object v = delegate().getObject(columnIndex);
        return v instanceof Integer ? Long.valueOf((Integer) v) : v;
    }

    private Object stored(String columnLabel) throws SQLException {
        return stored(delegate().findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return JdbcDates.timestamp(stored(columnIndex), null);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return JdbcDates.timestamp(stored(columnLabel), null);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return JdbcDates.timestamp(stored(columnIndex), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return JdbcDates.timestamp(stored(columnLabel), cal);
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return JdbcDates.date(stored(columnIndex), null);
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return JdbcDates.date(stored(columnLabel), null);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        return JdbcDates.date(stored(columnIndex), cal);
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return JdbcDates.date(stored(columnLabel), cal);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return JdbcDates.time(stored(columnIndex), null);
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return JdbcDates.time(stored(columnLabel), null);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return JdbcDates.time(stored(columnIndex), cal);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return JdbcDates.time(stored(columnLabel), cal);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        return type != null && JdbcDates.reads(type)
                ? JdbcDates.object(stored(columnIndex), type)
                : delegate().getObject(columnIndex, type);
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return type != null && JdbcDates.reads(type)
                ? JdbcDates.object(stored(columnLabel), type)
                : delegate().getObject(columnLabel, type);
    }

    // ------------------------------------------------------------------ wrapper

    @Override
    public ConnectionGuard guard() {
        return guard;
    }

    @Override
    public ResultSet target() {
        return target;
    }

    @Override
    public String toString() {
        return guard.describe(target);
    }
}

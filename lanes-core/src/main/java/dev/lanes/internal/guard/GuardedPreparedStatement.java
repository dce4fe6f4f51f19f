package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingPreparedStatement;
import dev.lanes.internal.types.ValueConvention;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Calendar;

/**
 * A prepared statement a body made, guarded as {@link GuardedStatement} is: its SQL was admitted
 * when it was prepared, and each execution runs only while the read is still on. A date or time
 * given to a setter ({@code setTimestamp}, {@code setDate}, {@code setTime}, and {@code
 * setObject} with a {@code java.util.Date} or a {@code java.time} value) is stored as Lanes
 * stores every date it binds ({@link ValueConvention#store}: text, never the driver's epoch
 * milliseconds), so that it reads back equal through every API; a calendar or target type given
 * with it is not used, as the data source does not use them. Every other value goes to the
 * driver's setter.
 *
 * @param <S> the driver's statement type
 */
class GuardedPreparedStatement<S extends PreparedStatement> extends GuardedStatement<S>
        implements DelegatingPreparedStatement<S> {
    GuardedPreparedStatement(ConnectionGuard guard, S target, boolean preparedVacuum) {
        super(guard, target, preparedVacuum);
    }

    // ------------------------------------------------------------------ executions

    @Override
    public ResultSet executeQuery() throws SQLException {
        return results(prepared(target()::executeQuery));
    }

    @Override
    public boolean execute() throws SQLException {
        return prepared(target()::execute);
    }

    @Override
    public int executeUpdate() throws SQLException {
        return prepared(target()::executeUpdate);
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return prepared(target()::executeLargeUpdate);
    }

    @Override
    public void addBatch() throws SQLException {
        guard.checkRunning();
        target().addBatch();
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        return guard.resultSetMetaData(delegate().getMetaData());
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        return guard.parameterMetaData(delegate().getParameterMetaData());
    }

    // ------------------------------------------------------------------ dates and times

    /** Whether Lanes stores {@code x} otherwise than the driver: a date or a time. */
    private static boolean dated(Object x) {
        return x instanceof java.util.Date || x instanceof Instant || x instanceof LocalDateTime
                || x instanceof OffsetDateTime || x instanceof LocalDate
                || x instanceof LocalTime;
    }

    /** Binds a date or time as Lanes stores it. */
    private void store(int position, Object x) throws SQLException {
        delegate().setObject(position, ValueConvention.store(x, position));
    }

    @Override
    public void setTimestamp(int position, Timestamp x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setTimestamp(int position, Timestamp x, Calendar cal) throws SQLException {
        store(position, x);
    }

    @Override
    public void setDate(int position, Date x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setDate(int position, Date x, Calendar cal) throws SQLException {
        store(position, x);
    }

    @Override
    public void setTime(int position, Time x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setTime(int position, Time x, Calendar cal) throws SQLException {
        store(position, x);
    }

    @Override
    public void setObject(int position, Object x) throws SQLException {
        if (dated(x)) {
            store(position, x);
        } else {
            delegate().setObject(position, x);
        }
    }

    @Override
    public void setObject(int position, Object x, int targetSqlType) throws SQLException {
        if (dated(x)) {
            store(position, x);
        } else {
            delegate().setObject(position, x, targetSqlType);
        }
    }

    @Override
    public void setObject(int position, Object x, int targetSqlType, int scaleOrLength)
            throws SQLException {
        if (dated(x)) {
            store(position, x);
        } else {
            delegate().setObject(position, x, targetSqlType, scaleOrLength);
        }
    }

    @Override
    public void setObject(int position, Object x, SQLType targetSqlType) throws SQLException {
        if (dated(x)) {
            store(position, x);
        } else {
            delegate().setObject(position, x, targetSqlType);
        }
    }

    @Override
    public void setObject(int position, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        if (dated(x)) {
            store(position, x);
        } else {
            delegate().setObject(position, x, targetSqlType, scaleOrLength);
        }
    }
}

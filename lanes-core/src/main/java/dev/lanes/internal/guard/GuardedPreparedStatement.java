package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingPreparedStatement;
import dev.lanes.internal.types.StreamValues;
import dev.lanes.internal.types.ValueConvention;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * A prepared statement a body made, guarded as {@link GuardedStatement} is: its SQL was admitted
 * when it was prepared, and each execution runs only while the read is still on. Every setter
 * whose value the driver would store otherwise than Lanes does binds it through {@link
 * ValueConvention#store}, as the data source and {@code db.execute} do, so that a value reads
 * back equal through every API: a date or time as text (never the driver's epoch milliseconds),
 * a {@code BigDecimal} in plain notation, a {@code UUID} or an enum as text; a {@code String}
 * (given, or read from a {@code Reader}) with a lone surrogate and a {@code NaN} are refused
 * rather than stored as {@code '?'} and NULL. A calendar or target type given with a value is not
 * used, as the data source does not use them. The setters of integers, booleans, bytes and
 * binary streams, which the driver stores as Lanes does, go to it unchanged.
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

    // ------------------------------------------------------------------ values

    /** Binds {@code x} as Lanes stores every value it binds; null as SQL NULL. */
    private void store(int position, Object x) throws SQLException {
        delegate().setObject(position, x == null ? null : ValueConvention.store(x, position));
    }

    @Override
    public void setFloat(int position, float x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setDouble(int position, double x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setBigDecimal(int position, BigDecimal x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setString(int position, String x) throws SQLException {
        store(position, x);
    }

    @Override
    public void setNString(int position, String x) throws SQLException {
        store(position, x);
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
        store(position, x);
    }

    @Override
    public void setObject(int position, Object x, int targetSqlType) throws SQLException {
        store(position, x);
    }

    @Override
    public void setObject(int position, Object x, int targetSqlType, int scaleOrLength)
            throws SQLException {
        store(position, x);
    }

    @Override
    public void setObject(int position, Object x, SQLType targetSqlType) throws SQLException {
        store(position, x);
    }

    @Override
    public void setObject(int position, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        store(position, x);
    }

    // ------------------------------------------------------------------ text read from a reader

    @Override
    public void setCharacterStream(int position, Reader x) throws SQLException {
        store(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setCharacterStream(int position, Reader x, int length) throws SQLException {
        store(position, StreamValues.chars(x, length));
    }

    @Override
    public void setCharacterStream(int position, Reader x, long length) throws SQLException {
        store(position, StreamValues.chars(x, length));
    }

    @Override
    public void setNCharacterStream(int position, Reader x) throws SQLException {
        store(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setNCharacterStream(int position, Reader x, long length) throws SQLException {
        store(position, StreamValues.chars(x, length));
    }

    @Override
    public void setClob(int position, Reader x) throws SQLException {
        store(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setClob(int position, Reader x, long length) throws SQLException {
        store(position, StreamValues.chars(x, length));
    }

    @Override
    public void setNClob(int position, Reader x) throws SQLException {
        store(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setNClob(int position, Reader x, long length) throws SQLException {
        store(position, StreamValues.chars(x, length));
    }
}

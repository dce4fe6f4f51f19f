package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.types.Parameters;
import dev.lanes.internal.types.StreamValues;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;

/**
 * A {@link PreparedStatement} of a {@link LogicalConnection}: a {@link JdbcStatement} with its
 * own SQL, whose shape ({@link StatementShape}) is found once, and its parameters. A setter
 * keeps the value as the lane binds it: the value itself (stored by {@link
 * dev.lanes.internal.types.ValueConvention} when it binds, as every argument Lanes binds), the bytes
 * of a binary stream, the text of a character or ASCII stream (at most its length, where one is
 * given), null for {@code setNull}. LOB objects, arrays, refs, row ids, URLs and XML are refused
 * with {@link SQLFeatureNotSupportedException}, as the driver refuses them. Calendars and target
 * types are not used: a {@code Timestamp} is stored as the instant it is, a {@code Date} and a
 * {@code Time} by their date and time of day in the JVM's zone.
 *
 * <p>Not thread-safe, as every JDBC statement: one user at a time. The parameters are handed to
 * the connection as they are for each execution (it has finished with them when the execution
 * returns); {@code addBatch} copies them.
 */
final class JdbcPreparedStatement extends JdbcStatement implements PreparedStatement {
    private final String sql;
    private final StatementShape shape;
    private final boolean generatedKeys;
    private final ParameterSlots parameters = new ParameterSlots();
    /** The parameters of {@code addBatch()}; made at the first one. */
    private List<Object[]> batch;

    JdbcPreparedStatement(LogicalConnection connection, String sql, boolean generatedKeys) {
        super(connection);
        this.sql = sql;
        this.shape = connection.shape(sql);
        this.generatedKeys = generatedKeys;
    }

    @Override
    String given(String other) throws SQLException {
        checkOpen();
        throw new SQLException("a PreparedStatement runs its own SQL; use a Statement for other "
                + "SQL");
    }

    private Execution run(Execution.Intent intent) throws SQLException {
        checkOpen();
        return run(shape, parameters.values(), intent, generatedKeys);
    }

    // ------------------------------------------------------------------ execution

    @Override
    public ResultSet executeQuery() throws SQLException {
        run(Execution.Intent.QUERY);
        return getResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return run(Execution.Intent.UPDATE).count();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return executeUpdate();
    }

    @Override
    public boolean execute() throws SQLException {
        return run(Execution.Intent.ANY).rows() != null;
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        if (batch == null) {
            batch = new ArrayList<>();
        }
        batch.add(parameters.copy());
    }

    @Override
    public void addBatch(String other) throws SQLException {
        checkOpen();
        throw new SQLException("a PreparedStatement batches its own SQL; call addBatch() with no "
                + "argument");
    }

    @Override
    void clearBatched() {
        if (batch != null) {
            batch.clear();
        }
    }

    @Override
    int[] runBatch() throws SQLException {
        List<dev.lanes.Statement> statements = new ArrayList<>(batch == null ? 0 : batch.size());
        for (Object[] p : batch == null ? List.<Object[]>of() : batch) {
            statements.add(dev.lanes.Statement.of(sql, p));
        }
        return connection.runBatch(statements, timeout());
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        parameters.clear();
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return null; // known only once it ran; JDBC allows null
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return JdbcParameterMetaData.of(sql);
    }

    @Override
    public String toString() {
        return "Statement[" + sql + "]";
    }

    // ------------------------------------------------------------------ binding

    /** How many parameters the storage holds room for now; for white-box tests. */
    int parameterCapacity() {
        return parameters.capacity();
    }

    /** Checks that the statement is open and {@code position} a parameter index. */
    private void check(int position) throws SQLException {
        checkOpen();
        if (position < 1) {
            throw new SQLException("parameter index " + position + " out of range");
        }
    }

    /** Keeps {@code value} for parameter {@code position}, checked already. */
    private void put(int position, Object value) {
        parameters.set(position, value);
    }

    private void bind(int position, Object value) throws SQLException {
        check(position);
        put(position, value);
    }

    private SQLException refused(int position, String setter) throws SQLException {
        check(position);
        return new SQLFeatureNotSupportedException(setter + " is not supported");
    }

    @Override
    public void setNull(int position, int sqlType) throws SQLException {
        bind(position, null);
    }

    @Override
    public void setNull(int position, int sqlType, String typeName) throws SQLException {
        bind(position, null);
    }

    @Override
    public void setBoolean(int position, boolean x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setByte(int position, byte x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setShort(int position, short x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setInt(int position, int x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setLong(int position, long x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setFloat(int position, float x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setDouble(int position, double x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setBigDecimal(int position, BigDecimal x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setString(int position, String x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setNString(int position, String x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setBytes(int position, byte[] x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setDate(int position, Date x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setDate(int position, Date x, Calendar cal) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setTime(int position, Time x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setTime(int position, Time x, Calendar cal) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setTimestamp(int position, Timestamp x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setTimestamp(int position, Timestamp x, Calendar cal) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setObject(int position, Object x) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setObject(int position, Object x, int targetSqlType) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setObject(int position, Object x, int targetSqlType, int scaleOrLength)
            throws SQLException {
        bind(position, x);
    }

    @Override
    public void setObject(int position, Object x, SQLType targetSqlType) throws SQLException {
        bind(position, x);
    }

    @Override
    public void setObject(int position, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        bind(position, x);
    }

    // ------------------------------------------------------------------ streams

    @Override
    public void setBinaryStream(int position, InputStream x) throws SQLException {
        check(position);
        put(position, StreamValues.bytes(x, Long.MAX_VALUE));
    }

    @Override
    public void setBinaryStream(int position, InputStream x, int length) throws SQLException {
        check(position);
        put(position, StreamValues.bytes(x, length));
    }

    @Override
    public void setBinaryStream(int position, InputStream x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.bytes(x, length));
    }

    @Override
    public void setBlob(int position, InputStream x) throws SQLException {
        check(position);
        put(position, StreamValues.bytes(x, Long.MAX_VALUE));
    }

    @Override
    public void setBlob(int position, InputStream x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.bytes(x, length));
    }

    @Override
    public void setAsciiStream(int position, InputStream x) throws SQLException {
        check(position);
        put(position, StreamValues.text(StreamValues.bytes(x, Long.MAX_VALUE)));
    }

    @Override
    public void setAsciiStream(int position, InputStream x, int length) throws SQLException {
        check(position);
        put(position, StreamValues.text(StreamValues.bytes(x, length)));
    }

    @Override
    public void setAsciiStream(int position, InputStream x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.text(StreamValues.bytes(x, length)));
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int position, InputStream x, int length) throws SQLException {
        check(position);
        put(position, StreamValues.text(StreamValues.bytes(x, length)));
    }

    @Override
    public void setCharacterStream(int position, Reader x) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setCharacterStream(int position, Reader x, int length) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, length));
    }

    @Override
    public void setCharacterStream(int position, Reader x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, length));
    }

    @Override
    public void setNCharacterStream(int position, Reader x) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setNCharacterStream(int position, Reader x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, length));
    }

    @Override
    public void setClob(int position, Reader x) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setClob(int position, Reader x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, length));
    }

    @Override
    public void setNClob(int position, Reader x) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, Long.MAX_VALUE));
    }

    @Override
    public void setNClob(int position, Reader x, long length) throws SQLException {
        check(position);
        put(position, StreamValues.chars(x, length));
    }

    // ------------------------------------------------------------------ refused

    @Override
    public void setBlob(int position, Blob x) throws SQLException {
        throw refused(position, "setBlob(int, Blob)");
    }

    @Override
    public void setClob(int position, Clob x) throws SQLException {
        throw refused(position, "setClob(int, Clob)");
    }

    @Override
    public void setNClob(int position, NClob x) throws SQLException {
        throw refused(position, "setNClob(int, NClob)");
    }

    @Override
    public void setArray(int position, Array x) throws SQLException {
        throw refused(position, "setArray");
    }

    @Override
    public void setRef(int position, Ref x) throws SQLException {
        throw refused(position, "setRef");
    }

    @Override
    public void setRowId(int position, RowId x) throws SQLException {
        throw refused(position, "setRowId");
    }

    @Override
    public void setSQLXML(int position, SQLXML x) throws SQLException {
        throw refused(position, "setSQLXML");
    }

    @Override
    public void setURL(int position, URL x) throws SQLException {
        throw refused(position, "setURL");
    }
}

package dev.lanes.internal.guard.delegating;

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
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * The methods {@link PreparedStatement} adds to {@link java.sql.Statement}, each forwarded once
 * and typed to {@link #delegate()}: an interface of default methods, so that a subclass of
 * {@link DelegatingStatement} takes them by implementing it, and overrides only what it
 * intercepts.
 *
 * @param <S> the type of the statement it forwards to
 */
public interface DelegatingPreparedStatement<S extends PreparedStatement>
        extends PreparedStatement {
    /** The statement a call is forwarded to; an implementation may check the call here first. */
    S delegate() throws SQLException;

    @Override
    default ResultSet executeQuery() throws SQLException {
        return delegate().executeQuery();
    }

    @Override
    default int executeUpdate() throws SQLException {
        return delegate().executeUpdate();
    }

    @Override
    default void setNull(int parameterIndex, int sqlType) throws SQLException {
        delegate().setNull(parameterIndex, sqlType);
    }

    @Override
    default void setBoolean(int parameterIndex, boolean x) throws SQLException {
        delegate().setBoolean(parameterIndex, x);
    }

    @Override
    default void setByte(int parameterIndex, byte x) throws SQLException {
        delegate().setByte(parameterIndex, x);
    }

    @Override
    default void setShort(int parameterIndex, short x) throws SQLException {
        delegate().setShort(parameterIndex, x);
    }

    @Override
    default void setInt(int parameterIndex, int x) throws SQLException {
        delegate().setInt(parameterIndex, x);
    }

    @Override
    default void setLong(int parameterIndex, long x) throws SQLException {
        delegate().setLong(parameterIndex, x);
    }

    @Override
    default void setFloat(int parameterIndex, float x) throws SQLException {
        delegate().setFloat(parameterIndex, x);
    }

    @Override
    default void setDouble(int parameterIndex, double x) throws SQLException {
        delegate().setDouble(parameterIndex, x);
    }

    @Override
    default void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        delegate().setBigDecimal(parameterIndex, x);
    }

    @Override
    default void setString(int parameterIndex, String x) throws SQLException {
        delegate().setString(parameterIndex, x);
    }

    @Override
    default void setBytes(int parameterIndex, byte[] x) throws SQLException {
        delegate().setBytes(parameterIndex, x);
    }

    @Override
    default void setDate(int parameterIndex, java.sql.Date x) throws SQLException {
        delegate().setDate(parameterIndex, x);
    }

    @Override
    default void setTime(int parameterIndex, java.sql.Time x) throws SQLException {
        delegate().setTime(parameterIndex, x);
    }

    @Override
    default void setTimestamp(int parameterIndex, java.sql.Timestamp x) throws SQLException {
        delegate().setTimestamp(parameterIndex, x);
    }

    @Override
    default void setAsciiStream(int parameterIndex, java.io.InputStream x, int length)
            throws SQLException {
        delegate().setAsciiStream(parameterIndex, x, length);
    }

    @Deprecated
    @Override
    default void setUnicodeStream(int parameterIndex, java.io.InputStream x, int length)
            throws SQLException {
        delegate().setUnicodeStream(parameterIndex, x, length);
    }

    @Override
    default void setBinaryStream(int parameterIndex, java.io.InputStream x, int length)
            throws SQLException {
        delegate().setBinaryStream(parameterIndex, x, length);
    }

    @Override
    default void clearParameters() throws SQLException {
        delegate().clearParameters();
    }

    @Override
    default void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        delegate().setObject(parameterIndex, x, targetSqlType);
    }

    @Override
    default void setObject(int parameterIndex, Object x) throws SQLException {
        delegate().setObject(parameterIndex, x);
    }

    @Override
    default boolean execute() throws SQLException {
        return delegate().execute();
    }

    @Override
    default void addBatch() throws SQLException {
        delegate().addBatch();
    }

    @Override
    default void setCharacterStream(int parameterIndex, java.io.Reader reader, int length)
            throws SQLException {
        delegate().setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    default void setRef(int parameterIndex, Ref x) throws SQLException {
        delegate().setRef(parameterIndex, x);
    }

    @Override
    default void setBlob(int parameterIndex, Blob x) throws SQLException {
        delegate().setBlob(parameterIndex, x);
    }

    @Override
    default void setClob(int parameterIndex, Clob x) throws SQLException {
        delegate().setClob(parameterIndex, x);
    }

    @Override
    default void setArray(int parameterIndex, Array x) throws SQLException {
        delegate().setArray(parameterIndex, x);
    }

    @Override
    default ResultSetMetaData getMetaData() throws SQLException {
        return delegate().getMetaData();
    }

    @Override
    default void setDate(int parameterIndex, java.sql.Date x, Calendar cal) throws SQLException {
        delegate().setDate(parameterIndex, x, cal);
    }

    @Override
    default void setTime(int parameterIndex, java.sql.Time x, Calendar cal) throws SQLException {
        delegate().setTime(parameterIndex, x, cal);
    }

    @Override
    default void setTimestamp(int parameterIndex, java.sql.Timestamp x, Calendar cal)
            throws SQLException {
        delegate().setTimestamp(parameterIndex, x, cal);
    }

    @Override
    default void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        delegate().setNull(parameterIndex, sqlType, typeName);
    }

    @Override
    default void setURL(int parameterIndex, URL x) throws SQLException {
        delegate().setURL(parameterIndex, x);
    }

    @Override
    default ParameterMetaData getParameterMetaData() throws SQLException {
        return delegate().getParameterMetaData();
    }

    @Override
    default void setRowId(int parameterIndex, RowId x) throws SQLException {
        delegate().setRowId(parameterIndex, x);
    }

    @Override
    default void setNString(int parameterIndex, String value) throws SQLException {
        delegate().setNString(parameterIndex, value);
    }

    @Override
    default void setNCharacterStream(int parameterIndex, Reader value, long length)
            throws SQLException {
        delegate().setNCharacterStream(parameterIndex, value, length);
    }

    @Override
    default void setNClob(int parameterIndex, NClob value) throws SQLException {
        delegate().setNClob(parameterIndex, value);
    }

    @Override
    default void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        delegate().setClob(parameterIndex, reader, length);
    }

    @Override
    default void setBlob(int parameterIndex, InputStream inputStream, long length)
            throws SQLException {
        delegate().setBlob(parameterIndex, inputStream, length);
    }

    @Override
    default void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        delegate().setNClob(parameterIndex, reader, length);
    }

    @Override
    default void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        delegate().setSQLXML(parameterIndex, xmlObject);
    }

    @Override
    default void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength)
            throws SQLException {
        delegate().setObject(parameterIndex, x, targetSqlType, scaleOrLength);
    }

    @Override
    default void setAsciiStream(int parameterIndex, java.io.InputStream x, long length)
            throws SQLException {
        delegate().setAsciiStream(parameterIndex, x, length);
    }

    @Override
    default void setBinaryStream(int parameterIndex, java.io.InputStream x, long length)
            throws SQLException {
        delegate().setBinaryStream(parameterIndex, x, length);
    }

    @Override
    default void setCharacterStream(int parameterIndex, java.io.Reader reader, long length)
            throws SQLException {
        delegate().setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    default void setAsciiStream(int parameterIndex, java.io.InputStream x) throws SQLException {
        delegate().setAsciiStream(parameterIndex, x);
    }

    @Override
    default void setBinaryStream(int parameterIndex, java.io.InputStream x) throws SQLException {
        delegate().setBinaryStream(parameterIndex, x);
    }

    @Override
    default void setCharacterStream(int parameterIndex, java.io.Reader reader) throws SQLException {
        delegate().setCharacterStream(parameterIndex, reader);
    }

    @Override
    default void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        delegate().setNCharacterStream(parameterIndex, value);
    }

    @Override
    default void setClob(int parameterIndex, Reader reader) throws SQLException {
        delegate().setClob(parameterIndex, reader);
    }

    @Override
    default void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        delegate().setBlob(parameterIndex, inputStream);
    }

    @Override
    default void setNClob(int parameterIndex, Reader reader) throws SQLException {
        delegate().setNClob(parameterIndex, reader);
    }

    @Override
    default void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        delegate().setObject(parameterIndex, x, targetSqlType, scaleOrLength);
    }

    @Override
    default void setObject(int parameterIndex, Object x, SQLType targetSqlType)
            throws SQLException {
        delegate().setObject(parameterIndex, x, targetSqlType);
    }

    @Override
    default long executeLargeUpdate() throws SQLException {
        return delegate().executeLargeUpdate();
    }
}

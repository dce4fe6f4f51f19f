package dev.lanes.internal.guard.delegating;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * The methods {@link CallableStatement} adds to {@link java.sql.PreparedStatement}, each forwarded
 * once and typed to {@link #delegate()}, as {@link DelegatingPreparedStatement} does for its own
 * (the getters in {@link DelegatingCallableStatementGetters}).
 *
 * @param <S> the type of the statement it forwards to
 */
public interface DelegatingCallableStatement<S extends CallableStatement>
        extends DelegatingCallableStatementGetters<S> {

    @Override
    default void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
        delegate().registerOutParameter(parameterIndex, sqlType);
    }

    @Override
    default void registerOutParameter(int parameterIndex, int sqlType, int scale)
            throws SQLException {
        delegate().registerOutParameter(parameterIndex, sqlType, scale);
    }

    @Override
    default boolean wasNull() throws SQLException {
        return delegate().wasNull();
    }

    @Override
    default void registerOutParameter(int parameterIndex, int sqlType, String typeName)
            throws SQLException {
        delegate().registerOutParameter(parameterIndex, sqlType, typeName);
    }

    @Override
    default void registerOutParameter(String parameterName, int sqlType) throws SQLException {
        delegate().registerOutParameter(parameterName, sqlType);
    }

    @Override
    default void registerOutParameter(String parameterName, int sqlType, int scale)
            throws SQLException {
        delegate().registerOutParameter(parameterName, sqlType, scale);
    }

    @Override
    default void registerOutParameter(String parameterName, int sqlType, String typeName)
            throws SQLException {
        delegate().registerOutParameter(parameterName, sqlType, typeName);
    }

    @Override
    default void setURL(String parameterName, URL val) throws SQLException {
        delegate().setURL(parameterName, val);
    }

    @Override
    default void setNull(String parameterName, int sqlType) throws SQLException {
        delegate().setNull(parameterName, sqlType);
    }

    @Override
    default void setBoolean(String parameterName, boolean x) throws SQLException {
        delegate().setBoolean(parameterName, x);
    }

    @Override
    default void setByte(String parameterName, byte x) throws SQLException {
        delegate().setByte(parameterName, x);
    }

    @Override
    default void setShort(String parameterName, short x) throws SQLException {
        delegate().setShort(parameterName, x);
    }

    @Override
    default void setInt(String parameterName, int x) throws SQLException {
        delegate().setInt(parameterName, x);
    }

    @Override
    default void setLong(String parameterName, long x) throws SQLException {
        delegate().setLong(parameterName, x);
    }

    @Override
    default void setFloat(String parameterName, float x) throws SQLException {
        delegate().setFloat(parameterName, x);
    }

    @Override
    default void setDouble(String parameterName, double x) throws SQLException {
        delegate().setDouble(parameterName, x);
    }

    @Override
    default void setBigDecimal(String parameterName, BigDecimal x) throws SQLException {
        delegate().setBigDecimal(parameterName, x);
    }

    @Override
    default void setString(String parameterName, String x) throws SQLException {
        delegate().setString(parameterName, x);
    }

    @Override
    default void setBytes(String parameterName, byte[] x) throws SQLException {
        delegate().setBytes(parameterName, x);
    }

    @Override
    default void setDate(String parameterName, java.sql.Date x) throws SQLException {
        delegate().setDate(parameterName, x);
    }

    @Override
    default void setTime(String parameterName, java.sql.Time x) throws SQLException {
        delegate().setTime(parameterName, x);
    }

    @Override
    default void setTimestamp(String parameterName, java.sql.Timestamp x) throws SQLException {
        delegate().setTimestamp(parameterName, x);
    }

    @Override
    default void setAsciiStream(String parameterName, java.io.InputStream x, int length)
            throws SQLException {
        delegate().setAsciiStream(parameterName, x, length);
    }

    @Override
    default void setBinaryStream(String parameterName, java.io.InputStream x, int length)
            throws SQLException {
        delegate().setBinaryStream(parameterName, x, length);
    }

    @Override
    default void setObject(String parameterName, Object x, int targetSqlType, int scale)
            throws SQLException {
        delegate().setObject(parameterName, x, targetSqlType, scale);
    }

    @Override
    default void setObject(String parameterName, Object x, int targetSqlType) throws SQLException {
        delegate().setObject(parameterName, x, targetSqlType);
    }

    @Override
    default void setObject(String parameterName, Object x) throws SQLException {
        delegate().setObject(parameterName, x);
    }

    @Override
    default void setCharacterStream(String parameterName, java.io.Reader reader, int length)
            throws SQLException {
        delegate().setCharacterStream(parameterName, reader, length);
    }

    @Override
    default void setDate(String parameterName, java.sql.Date x, Calendar cal) throws SQLException {
        delegate().setDate(parameterName, x, cal);
    }

    @Override
    default void setTime(String parameterName, java.sql.Time x, Calendar cal) throws SQLException {
        delegate().setTime(parameterName, x, cal);
    }

    @Override
    default void setTimestamp(String parameterName, java.sql.Timestamp x, Calendar cal)
            throws SQLException {
        delegate().setTimestamp(parameterName, x, cal);
    }

    @Override
    default void setNull(String parameterName, int sqlType, String typeName) throws SQLException {
        delegate().setNull(parameterName, sqlType, typeName);
    }

    @Override
    default void setRowId(String parameterName, RowId x) throws SQLException {
        delegate().setRowId(parameterName, x);
    }

    @Override
    default void setNString(String parameterName, String value) throws SQLException {
        delegate().setNString(parameterName, value);
    }

    @Override
    default void setNCharacterStream(String parameterName, Reader value, long length)
            throws SQLException {
        delegate().setNCharacterStream(parameterName, value, length);
    }

    @Override
    default void setNClob(String parameterName, NClob value) throws SQLException {
        delegate().setNClob(parameterName, value);
    }

    @Override
    default void setClob(String parameterName, Reader reader, long length) throws SQLException {
        delegate().setClob(parameterName, reader, length);
    }

    @Override
    default void setBlob(String parameterName, InputStream inputStream, long length)
            throws SQLException {
        delegate().setBlob(parameterName, inputStream, length);
    }

    @Override
    default void setNClob(String parameterName, Reader reader, long length) throws SQLException {
        delegate().setNClob(parameterName, reader, length);
    }

    @Override
    default void setSQLXML(String parameterName, SQLXML xmlObject) throws SQLException {
        delegate().setSQLXML(parameterName, xmlObject);
    }

    @Override
    default void setBlob(String parameterName, Blob x) throws SQLException {
        delegate().setBlob(parameterName, x);
    }

    @Override
    default void setClob(String parameterName, Clob x) throws SQLException {
        delegate().setClob(parameterName, x);
    }

    @Override
    default void setAsciiStream(String parameterName, java.io.InputStream x, long length)
            throws SQLException {
        delegate().setAsciiStream(parameterName, x, length);
    }

    @Override
    default void setBinaryStream(String parameterName, java.io.InputStream x, long length)
            throws SQLException {
        delegate().setBinaryStream(parameterName, x, length);
    }

    @Override
    default void setCharacterStream(String parameterName, java.io.Reader reader, long length)
            throws SQLException {
        delegate().setCharacterStream(parameterName, reader, length);
    }

    @Override
    default void setAsciiStream(String parameterName, java.io.InputStream x) throws SQLException {
        delegate().setAsciiStream(parameterName, x);
    }

    @Override
    default void setBinaryStream(String parameterName, java.io.InputStream x) throws SQLException {
        delegate().setBinaryStream(parameterName, x);
    }

    @Override
    default void setCharacterStream(String parameterName, java.io.Reader reader)
            throws SQLException {
        delegate().setCharacterStream(parameterName, reader);
    }

    @Override
    default void setNCharacterStream(String parameterName, Reader value) throws SQLException {
        delegate().setNCharacterStream(parameterName, value);
    }

    @Override
    default void setClob(String parameterName, Reader reader) throws SQLException {
        delegate().setClob(parameterName, reader);
    }

    @Override
    default void setBlob(String parameterName, InputStream inputStream) throws SQLException {
        delegate().setBlob(parameterName, inputStream);
    }

    @Override
    default void setNClob(String parameterName, Reader reader) throws SQLException {
        delegate().setNClob(parameterName, reader);
    }

    @Override
    default void setObject(String parameterName, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        delegate().setObject(parameterName, x, targetSqlType, scaleOrLength);
    }

    @Override
    default void setObject(String parameterName, Object x, SQLType targetSqlType)
            throws SQLException {
        delegate().setObject(parameterName, x, targetSqlType);
    }

    @Override
    default void registerOutParameter(int parameterIndex, SQLType sqlType) throws SQLException {
        delegate().registerOutParameter(parameterIndex, sqlType);
    }

    @Override
    default void registerOutParameter(int parameterIndex, SQLType sqlType, int scale)
            throws SQLException {
        delegate().registerOutParameter(parameterIndex, sqlType, scale);
    }

    @Override
    default void registerOutParameter(int parameterIndex, SQLType sqlType, String typeName)
            throws SQLException {
        delegate().registerOutParameter(parameterIndex, sqlType, typeName);
    }

    @Override
    default void registerOutParameter(String parameterName, SQLType sqlType) throws SQLException {
        delegate().registerOutParameter(parameterName, sqlType);
    }

    @Override
    default void registerOutParameter(String parameterName, SQLType sqlType, int scale)
            throws SQLException {
        delegate().registerOutParameter(parameterName, sqlType, scale);
    }

    @Override
    default void registerOutParameter(String parameterName, SQLType sqlType, String typeName)
            throws SQLException {
        delegate().registerOutParameter(parameterName, sqlType, typeName);
    }
}

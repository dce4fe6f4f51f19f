package dev.lanes.internal.guard.delegating;

import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The getters of the out parameters {@link CallableStatement} adds, each forwarded once and typed
 * to {@link #delegate()}. Split off from {@link DelegatingCallableStatement} only to keep each
 * file short.
 *
 * @param <S> the type of the statement it forwards to
 */
public interface DelegatingCallableStatementGetters<S extends CallableStatement>
        extends CallableStatement, DelegatingPreparedStatement<S> {

    @Override
    default String getString(int parameterIndex) throws SQLException {
        return delegate().getString(parameterIndex);
    }

    @Override
    default boolean getBoolean(int parameterIndex) throws SQLException {
        return delegate().getBoolean(parameterIndex);
    }

    @Override
    default byte getByte(int parameterIndex) throws SQLException {
        return delegate().getByte(parameterIndex);
    }

    @Override
    default short getShort(int parameterIndex) throws SQLException {
        return delegate().getShort(parameterIndex);
    }

    @Override
    default int getInt(int parameterIndex) throws SQLException {
        return delegate().getInt(parameterIndex);
    }

    @Override
    default long getLong(int parameterIndex) throws SQLException {
        return delegate().getLong(parameterIndex);
    }

    @Override
    default float getFloat(int parameterIndex) throws SQLException {
        return delegate().getFloat(parameterIndex);
    }

    @Override
    default double getDouble(int parameterIndex) throws SQLException {
        return delegate().getDouble(parameterIndex);
    }

    @Deprecated
    @Override
    default BigDecimal getBigDecimal(int parameterIndex, int scale) throws SQLException {
        return delegate().getBigDecimal(parameterIndex, scale);
    }

    @Override
    default byte[] getBytes(int parameterIndex) throws SQLException {
        return delegate().getBytes(parameterIndex);
    }

    @Override
    default java.sql.Date getDate(int parameterIndex) throws SQLException {
        return delegate().getDate(parameterIndex);
    }

    @Override
    default java.sql.Time getTime(int parameterIndex) throws SQLException {
        return delegate().getTime(parameterIndex);
    }

    @Override
    default java.sql.Timestamp getTimestamp(int parameterIndex) throws SQLException {
        return delegate().getTimestamp(parameterIndex);
    }

    @Override
    default Object getObject(int parameterIndex) throws SQLException {
        return delegate().getObject(parameterIndex);
    }

    @Override
    default BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
        return delegate().getBigDecimal(parameterIndex);
    }

    @Override
    default Object getObject(int parameterIndex, java.util.Map<String, Class<?>> map)
            throws SQLException {
        return delegate().getObject(parameterIndex, map);
    }

    @Override
    default Ref getRef(int parameterIndex) throws SQLException {
        return delegate().getRef(parameterIndex);
    }

    @Override
    default Blob getBlob(int parameterIndex) throws SQLException {
        return delegate().getBlob(parameterIndex);
    }

    @Override
    default Clob getClob(int parameterIndex) throws SQLException {
        return delegate().getClob(parameterIndex);
    }

    @Override
    default Array getArray(int parameterIndex) throws SQLException {
        return delegate().getArray(parameterIndex);
    }

    @Override
    default java.sql.Date getDate(int parameterIndex, Calendar cal) throws SQLException {
        return delegate().getDate(parameterIndex, cal);
    }

    @Override
    default java.sql.Time getTime(int parameterIndex, Calendar cal) throws SQLException {
        return delegate().getTime(parameterIndex, cal);
    }

    @Override
    default java.sql.Timestamp getTimestamp(int parameterIndex, Calendar cal) throws SQLException {
        return delegate().getTimestamp(parameterIndex, cal);
    }

    @Override
    default URL getURL(int parameterIndex) throws SQLException {
        return delegate().getURL(parameterIndex);
    }

    @Override
    default String getString(String parameterName) throws SQLException {
        return delegate().getString(parameterName);
    }

    @Override
    default boolean getBoolean(String parameterName) throws SQLException {
        return delegate().getBoolean(parameterName);
    }

    @Override
    default byte getByte(String parameterName) throws SQLException {
        return delegate().getByte(parameterName);
    }

    @Override
    default short getShort(String parameterName) throws SQLException {
        return delegate().getShort(parameterName);
    }

    @Override
    default int getInt(String parameterName) throws SQLException {
        return delegate().getInt(parameterName);
    }

    @Override
    default long getLong(String parameterName) throws SQLException {
        return delegate().getLong(parameterName);
    }

    @Override
    default float getFloat(String parameterName) throws SQLException {
        return delegate().getFloat(parameterName);
    }

    @Override
    default double getDouble(String parameterName) throws SQLException {
        return delegate().getDouble(parameterName);
    }

    @Override
    default byte[] getBytes(String parameterName) throws SQLException {
        return delegate().getBytes(parameterName);
    }

    @Override
    default java.sql.Date getDate(String parameterName) throws SQLException {
        return delegate().getDate(parameterName);
    }

    @Override
    default java.sql.Time getTime(String parameterName) throws SQLException {
        return delegate().getTime(parameterName);
    }

    @Override
    default java.sql.Timestamp getTimestamp(String parameterName) throws SQLException {
        return delegate().getTimestamp(parameterName);
    }

    @Override
    default Object getObject(String parameterName) throws SQLException {
        return delegate().getObject(parameterName);
    }

    @Override
    default BigDecimal getBigDecimal(String parameterName) throws SQLException {
        return delegate().getBigDecimal(parameterName);
    }

    @Override
    default Object getObject(String parameterName, java.util.Map<String, Class<?>> map)
            throws SQLException {
        return delegate().getObject(parameterName, map);
    }

    @Override
    default Ref getRef(String parameterName) throws SQLException {
        return delegate().getRef(parameterName);
    }

    @Override
    default Blob getBlob(String parameterName) throws SQLException {
        return delegate().getBlob(parameterName);
    }

    @Override
    default Clob getClob(String parameterName) throws SQLException {
        return delegate().getClob(parameterName);
    }

    @Override
    default Array getArray(String parameterName) throws SQLException {
        return delegate().getArray(parameterName);
    }

    @Override
    default java.sql.Date getDate(String parameterName, Calendar cal) throws SQLException {
        return delegate().getDate(parameterName, cal);
    }

    @Override
    default java.sql.Time getTime(String parameterName, Calendar cal) throws SQLException {
        return delegate().getTime(parameterName, cal);
    }

    @Override
    default java.sql.Timestamp getTimestamp(String parameterName, Calendar cal)
            throws SQLException {
        return delegate().getTimestamp(parameterName, cal);
    }

    @Override
    default URL getURL(String parameterName) throws SQLException {
        return delegate().getURL(parameterName);
    }

    @Override
    default RowId getRowId(int parameterIndex) throws SQLException {
        return delegate().getRowId(parameterIndex);
    }

    @Override
    default RowId getRowId(String parameterName) throws SQLException {
        return delegate().getRowId(parameterName);
    }

    @Override
    default NClob getNClob(int parameterIndex) throws SQLException {
        return delegate().getNClob(parameterIndex);
    }

    @Override
    default NClob getNClob(String parameterName) throws SQLException {
        return delegate().getNClob(parameterName);
    }

    @Override
    default SQLXML getSQLXML(int parameterIndex) throws SQLException {
        return delegate().getSQLXML(parameterIndex);
    }

    @Override
    default SQLXML getSQLXML(String parameterName) throws SQLException {
        return delegate().getSQLXML(parameterName);
    }

    @Override
    default String getNString(int parameterIndex) throws SQLException {
        return delegate().getNString(parameterIndex);
    }

    @Override
    default String getNString(String parameterName) throws SQLException {
        return delegate().getNString(parameterName);
    }

    @Override
    default java.io.Reader getNCharacterStream(int parameterIndex) throws SQLException {
        return delegate().getNCharacterStream(parameterIndex);
    }

    @Override
    default java.io.Reader getNCharacterStream(String parameterName) throws SQLException {
        return delegate().getNCharacterStream(parameterName);
    }

    @Override
    default java.io.Reader getCharacterStream(int parameterIndex) throws SQLException {
        return delegate().getCharacterStream(parameterIndex);
    }

    @Override
    default java.io.Reader getCharacterStream(String parameterName) throws SQLException {
        return delegate().getCharacterStream(parameterName);
    }

    @Override
    default <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
        return delegate().getObject(parameterIndex, type);
    }

    @Override
    default <T> T getObject(String parameterName, Class<T> type) throws SQLException {
        return delegate().getObject(parameterName, type);
    }
}

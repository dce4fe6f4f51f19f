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
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * A {@link ResultSet} that forwards every call, once per method and typed, to the result set
 * {@link #delegate()} gives (the updates in {@link DelegatingResultSetUpdates}). A subclass
 * overrides only what it intercepts, and answers {@code unwrap} and {@code isWrapperFor} itself.
 * Holds no state of its own.
 */
public abstract class DelegatingResultSet extends DelegatingResultSetUpdates {

    @Override
    public boolean next() throws SQLException {
        return delegate().next();
    }

    @Override
    public void close() throws SQLException {
        delegate().close();
    }

    @Override
    public boolean wasNull() throws SQLException {
        return delegate().wasNull();
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        return delegate().getString(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        return delegate().getBoolean(columnIndex);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return delegate().getByte(columnIndex);
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return delegate().getShort(columnIndex);
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        return delegate().getInt(columnIndex);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return delegate().getLong(columnIndex);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return delegate().getFloat(columnIndex);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        return delegate().getDouble(columnIndex);
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        return delegate().getBigDecimal(columnIndex, scale);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        return delegate().getBytes(columnIndex);
    }

    @Override
    public java.sql.Date getDate(int columnIndex) throws SQLException {
        return delegate().getDate(columnIndex);
    }

    @Override
    public java.sql.Time getTime(int columnIndex) throws SQLException {
        return delegate().getTime(columnIndex);
    }

    @Override
    public java.sql.Timestamp getTimestamp(int columnIndex) throws SQLException {
        return delegate().getTimestamp(columnIndex);
    }

    @Override
    public java.io.InputStream getAsciiStream(int columnIndex) throws SQLException {
        return delegate().getAsciiStream(columnIndex);
    }

    @Deprecated
    @Override
    public java.io.InputStream getUnicodeStream(int columnIndex) throws SQLException {
        return delegate().getUnicodeStream(columnIndex);
    }

    @Override
    public java.io.InputStream getBinaryStream(int columnIndex) throws SQLException {
        return delegate().getBinaryStream(columnIndex);
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return delegate().getString(columnLabel);
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return delegate().getBoolean(columnLabel);
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return delegate().getByte(columnLabel);
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return delegate().getShort(columnLabel);
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return delegate().getInt(columnLabel);
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return delegate().getLong(columnLabel);
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return delegate().getFloat(columnLabel);
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return delegate().getDouble(columnLabel);
    }

    @Deprecated
    @Override
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return delegate().getBigDecimal(columnLabel, scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return delegate().getBytes(columnLabel);
    }

    @Override
    public java.sql.Date getDate(String columnLabel) throws SQLException {
        return delegate().getDate(columnLabel);
    }

    @Override
    public java.sql.Time getTime(String columnLabel) throws SQLException {
        return delegate().getTime(columnLabel);
    }

    @Override
    public java.sql.Timestamp getTimestamp(String columnLabel) throws SQLException {
        return delegate().getTimestamp(columnLabel);
    }

    @Override
    public java.io.InputStream getAsciiStream(String columnLabel) throws SQLException {
        return delegate().getAsciiStream(columnLabel);
    }

    @Deprecated
    @Override
    public java.io.InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return delegate().getUnicodeStream(columnLabel);
    }

    @Override
    public java.io.InputStream getBinaryStream(String columnLabel) throws SQLException {
        return delegate().getBinaryStream(columnLabel);
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        return delegate().getWarnings();
    }

    @Override
    public void clearWarnings() throws SQLException {
        delegate().clearWarnings();
    }

    @Override
    public String getCursorName() throws SQLException {
        return delegate().getCursorName();
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        return delegate().getMetaData();
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return delegate().getObject(columnIndex);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return delegate().getObject(columnLabel);
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        return delegate().findColumn(columnLabel);
    }

    @Override
    public java.io.Reader getCharacterStream(int columnIndex) throws SQLException {
        return delegate().getCharacterStream(columnIndex);
    }

    @Override
    public java.io.Reader getCharacterStream(String columnLabel) throws SQLException {
        return delegate().getCharacterStream(columnLabel);
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        return delegate().getBigDecimal(columnIndex);
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return delegate().getBigDecimal(columnLabel);
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        return delegate().isBeforeFirst();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        return delegate().isAfterLast();
    }

    @Override
    public boolean isFirst() throws SQLException {
        return delegate().isFirst();
    }

    @Override
    public boolean isLast() throws SQLException {
        return delegate().isLast();
    }

    @Override
    public void beforeFirst() throws SQLException {
        delegate().beforeFirst();
    }

    @Override
    public void afterLast() throws SQLException {
        delegate().afterLast();
    }

    @Override
    public boolean first() throws SQLException {
        return delegate().first();
    }

    @Override
    public boolean last() throws SQLException {
        return delegate().last();
    }

    @Override
    public int getRow() throws SQLException {
        return delegate().getRow();
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        return delegate().absolute(row);
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        return delegate().relative(rows);
    }

    @Override
    public boolean previous() throws SQLException {
        return delegate().previous();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        delegate().setFetchDirection(direction);
    }

    @Override
    public int getFetchDirection() throws SQLException {
        return delegate().getFetchDirection();
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        delegate().setFetchSize(rows);
    }

    @Override
    public int getFetchSize() throws SQLException {
        return delegate().getFetchSize();
    }

    @Override
    public int getType() throws SQLException {
        return delegate().getType();
    }

    @Override
    public int getConcurrency() throws SQLException {
        return delegate().getConcurrency();
    }

    @Override
    public Statement getStatement() throws SQLException {
        return delegate().getStatement();
    }

    @Override
    public Object getObject(int columnIndex, java.util.Map<String, Class<?>> map)
            throws SQLException {
        return delegate().getObject(columnIndex, map);
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        return delegate().getRef(columnIndex);
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        return delegate().getBlob(columnIndex);
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        return delegate().getClob(columnIndex);
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        return delegate().getArray(columnIndex);
    }

    @Override
    public Object getObject(String columnLabel, java.util.Map<String, Class<?>> map)
            throws SQLException {
        return delegate().getObject(columnLabel, map);
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        return delegate().getRef(columnLabel);
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return delegate().getBlob(columnLabel);
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return delegate().getClob(columnLabel);
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return delegate().getArray(columnLabel);
    }

    @Override
    public java.sql.Date getDate(int columnIndex, Calendar cal) throws SQLException {
        return delegate().getDate(columnIndex, cal);
    }

    @Override
    public java.sql.Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return delegate().getDate(columnLabel, cal);
    }

    @Override
    public java.sql.Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return delegate().getTime(columnIndex, cal);
    }

    @Override
    public java.sql.Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return delegate().getTime(columnLabel, cal);
    }

    @Override
    public java.sql.Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return delegate().getTimestamp(columnIndex, cal);
    }

    @Override
    public java.sql.Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return delegate().getTimestamp(columnLabel, cal);
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        return delegate().getURL(columnIndex);
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return delegate().getURL(columnLabel);
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        return delegate().getRowId(columnIndex);
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        return delegate().getRowId(columnLabel);
    }

    @Override
    public int getHoldability() throws SQLException {
        return delegate().getHoldability();
    }

    @Override
    public boolean isClosed() throws SQLException {
        return delegate().isClosed();
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        return delegate().getNClob(columnIndex);
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return delegate().getNClob(columnLabel);
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        return delegate().getSQLXML(columnIndex);
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        return delegate().getSQLXML(columnLabel);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return delegate().getNString(columnIndex);
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return delegate().getNString(columnLabel);
    }

    @Override
    public java.io.Reader getNCharacterStream(int columnIndex) throws SQLException {
        return delegate().getNCharacterStream(columnIndex);
    }

    @Override
    public java.io.Reader getNCharacterStream(String columnLabel) throws SQLException {
        return delegate().getNCharacterStream(columnLabel);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        return delegate().getObject(columnIndex, type);
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return delegate().getObject(columnLabel, type);
    }
}

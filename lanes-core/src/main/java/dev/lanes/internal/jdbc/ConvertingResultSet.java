package dev.lanes.internal.jdbc;

import dev.lanes.internal.types.JdbcDates;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The typed getters of a read-only {@link ResultSet}, each the cell {@link #value(int)} gives
 * converted as {@link JdbcValues} says (the dates as {@link JdbcDates} says), by index and by
 * label alike: what a getter returns for a stored value is decided there, once, and never by
 * the result set that holds the rows.
 * Stateless; the subclass keeps the rows and the cursor.
 */
abstract sealed class ConvertingResultSet extends ReadOnlyResultSet permits DetachedResultSet {
    @Override
    public String getString(int columnIndex) throws SQLException {
        return JdbcValues.string(value(columnIndex));
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return JdbcValues.string(value(columnLabel));
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return JdbcValues.string(value(columnIndex));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return JdbcValues.string(value(columnLabel));
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        return JdbcValues.longValue(value(columnIndex)) != 0;
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return JdbcValues.longValue(value(columnLabel)) != 0;
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return (byte) JdbcValues.longValue(value(columnIndex));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return (byte) JdbcValues.longValue(value(columnLabel));
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return (short) JdbcValues.longValue(value(columnIndex));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return (short) JdbcValues.longValue(value(columnLabel));
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        return (int) JdbcValues.longValue(value(columnIndex));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return (int) JdbcValues.longValue(value(columnLabel));
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return JdbcValues.longValue(value(columnIndex));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return JdbcValues.longValue(value(columnLabel));
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return (float) JdbcValues.doubleValue(value(columnIndex));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return (float) JdbcValues.doubleValue(value(columnLabel));
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        return JdbcValues.doubleValue(value(columnIndex));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return JdbcValues.doubleValue(value(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        return JdbcValues.bigDecimal(value(columnIndex));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return JdbcValues.bigDecimal(value(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        return scaled(JdbcValues.bigDecimal(value(columnIndex)), scale);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return scaled(JdbcValues.bigDecimal(value(columnLabel)), scale);
    }

    private static BigDecimal scaled(BigDecimal d, int scale) {
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        return JdbcValues.bytes(value(columnIndex));
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return JdbcValues.bytes(value(columnLabel));
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return JdbcDates.date(value(columnIndex), null);
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return JdbcDates.date(value(columnLabel), null);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        return JdbcDates.date(value(columnIndex), cal);
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return JdbcDates.date(value(columnLabel), cal);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return JdbcDates.time(value(columnIndex), null);
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return JdbcDates.time(value(columnLabel), null);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return JdbcDates.time(value(columnIndex), cal);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return JdbcDates.time(value(columnLabel), cal);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return JdbcDates.timestamp(value(columnIndex), null);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return JdbcDates.timestamp(value(columnLabel), null);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return JdbcDates.timestamp(value(columnIndex), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return JdbcDates.timestamp(value(columnLabel), cal);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return JdbcValues.object(value(columnIndex));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return JdbcValues.object(value(columnLabel));
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        return as(value(columnIndex), type);
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return as(value(columnLabel), type);
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        return mapped(value(columnIndex), map);
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return mapped(value(columnLabel), map);
    }

    /** {@code getObject(column, type)}; without a type, the plain {@code getObject}. */
    @SuppressWarnings("unchecked")
    private static <T> T as(Object v, Class<T> type) throws SQLException {
        return type == null ? (T) JdbcValues.object(v) : JdbcValues.as(v, type);
    }

    private static Object mapped(Object v, Map<String, Class<?>> map) throws SQLException {
        if (map == null || map.isEmpty()) {
            return JdbcValues.object(v);
        }
        throw new SQLFeatureNotSupportedException("getObject with a type map is not supported");
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        return stream(JdbcValues.bytes(value(columnIndex)));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return stream(JdbcValues.bytes(value(columnLabel)));
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        return ascii(JdbcValues.string(value(columnIndex)));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return ascii(JdbcValues.string(value(columnLabel)));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        return ascii(JdbcValues.string(value(columnIndex))); // as the driver does
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return ascii(JdbcValues.string(value(columnLabel)));
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        return reader(JdbcValues.string(value(columnIndex)));
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return reader(JdbcValues.string(value(columnLabel)));
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return reader(JdbcValues.string(value(columnIndex)));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return reader(JdbcValues.string(value(columnLabel)));
    }

    private static InputStream stream(byte[] bytes) {
        return bytes == null ? null : new ByteArrayInputStream(bytes);
    }

    /** The text's bytes in ASCII ({@code ?} for any other character), as the driver gives. */
    private static InputStream ascii(String s) {
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static Reader reader(String s) {
        return s == null ? null : new StringReader(s);
    }
}

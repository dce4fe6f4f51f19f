package dev.lanes.internal.jdbc;

import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Calendar;
import java.util.List;
import java.util.Map;

/**
 * A forward-only, read-only {@link ResultSet} over a result already read off its connection
 * ({@link ResultData}): it holds no reader, no statement and no thread, so it can be read from
 * any thread, after the request that produced it ended. Values convert as {@link JdbcValues}
 * says, after sqlite-jdbc's result set.
 *
 * <p>A dynamic proxy answers the interface: the methods below are the result set; scrolling
 * ({@code absolute}, {@code previous}, …) fails as on any forward-only result set, and what JDBC
 * lets a driver refuse (updates, {@code getBlob}, {@code getArray}, …) fails with {@link
 * SQLFeatureNotSupportedException}, never silently.
 *
 * <p>Not thread-safe: one user, as every JDBC result set.
 */
final class DetachedResultSet implements InvocationHandler {
    private static final Proxies<ResultSet> RESULT_SETS = Proxies.of(ResultSet.class);
    private static final Proxies<ResultSetMetaData> META_DATA =
            Proxies.of(ResultSetMetaData.class);

    private final ResultData data;
    private final List<Row> rows;
    private final Statement statement;
    private int index = -1;
    private boolean closed;
    private boolean lastWasNull;

    private DetachedResultSet(ResultData data, Statement statement) {
        this.data = data;
        this.rows = data.rows();
        this.statement = statement;
    }

    /** A result set over {@code data}; {@code statement} is what {@code getStatement()} gives. */
    static ResultSet of(ResultData data, Statement statement) {
        return RESULT_SETS.create(new DetachedResultSet(data, statement));
    }

    /** An empty result set with one column, as {@code getGeneratedKeys} gives for no insert. */
    static ResultSet ofKeys(long rowid, boolean any, Statement statement) {
        List<String> column = List.of("last_insert_rowid()");
        List<Row> rows = any ? List.of(Row.of(column, new Object[] {rowid})) : List.of();
        return of(new ResultData(column, column, List.of("INTEGER"), rows), statement);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "ResultSet[" + data.labels() + ", " + rows.size() + " rows]";
            case "close":
                closed = true;
                return null;
            case "isClosed":
                return closed;
            case "unwrap":
                return unwrap(proxy, (Class<?>) args[0]);
            case "isWrapperFor":
                return ((Class<?>) args[0]).isInstance(proxy);
            default:
                break;
        }
        if (closed) {
            throw new SQLException("the result set is closed");
        }
        Object answer = cursorCall(name, args);
        if (answer != NOT_A_CURSOR_CALL) {
            return answer;
        }
        if (name.startsWith("get") && args != null && args.length >= 1
                && (args[0] instanceof Integer || args[0] instanceof String)) {
            return value(name, args);
        }
        if (name.startsWith("update") || name.endsWith("Row") || name.equals("rowUpdated")
                || name.equals("rowInserted") || name.equals("rowDeleted")) {
            throw new SQLFeatureNotSupportedException("the result set is read-only ("
                    + name + ")");
        }
        switch (name) {
            case "first":
            case "last":
            case "absolute":
            case "relative":
            case "previous":
            case "beforeFirst":
            case "afterLast":
                throw new SQLException("the result set is TYPE_FORWARD_ONLY (" + name + ")");
            default:
                throw new SQLFeatureNotSupportedException("ResultSet." + name
                        + " is not supported");
        }
    }

    private static final Object NOT_A_CURSOR_CALL = new Object();

    /** Navigation and the result set's own properties. */
    private Object cursorCall(String name, Object[] args) throws SQLException {
        switch (name) {
            case "next":
                if (index < rows.size()) {
                    index++;
                }
                return index < rows.size();
            case "wasNull":
                return lastWasNull;
            case "findColumn":
                return column((String) args[0]) + 1;
            case "getMetaData":
                return metaData();
            case "getStatement":
                return statement;
            case "getType":
                return ResultSet.TYPE_FORWARD_ONLY;
            case "getConcurrency":
                return ResultSet.CONCUR_READ_ONLY;
            case "getHoldability":
                return ResultSet.CLOSE_CURSORS_AT_COMMIT;
            case "getFetchDirection":
                return ResultSet.FETCH_FORWARD;
            case "setFetchDirection":
                if ((Integer) args[0] != ResultSet.FETCH_FORWARD) {
                    throw new SQLException("only FETCH_FORWARD is supported");
                }
                return null;
            case "getFetchSize":
                return 0;
            case "setFetchSize":
                return null; // a hint; the rows are all here already
            case "getRow":
                return index >= 0 && index < rows.size() ? index + 1 : 0;
            case "isBeforeFirst":
                return index < 0 && !rows.isEmpty();
            case "isAfterLast":
                return index >= rows.size() && !rows.isEmpty();
            case "isFirst":
                return index == 0 && !rows.isEmpty();
            case "isLast":
                return index == rows.size() - 1 && !rows.isEmpty();
            case "getWarnings":
            case "getCursorName":
                return null;
            case "clearWarnings":
                return null;
            default:
                return NOT_A_CURSOR_CALL;
        }
    }

    private Object unwrap(Object proxy, Class<?> iface) throws SQLException {
        if (iface.isInstance(proxy)) {
            return proxy;
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    private int column(String label) throws SQLException {
        List<String> labels = data.labels();
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).equalsIgnoreCase(label)) {
                return i;
            }
        }
        throw new SQLException("no such column: '" + label + "'");
    }

    private int column(Object ref) throws SQLException {
        if (ref instanceof String) {
            return column((String) ref);
        }
        int i = (Integer) ref - 1;
        if (i < 0 || i >= data.labels().size()) {
            throw new SQLException("column " + ref + " out of bounds [1," + data.labels().size()
                    + "]");
        }
        return i;
    }

    private Object raw(Object ref) throws SQLException {
        if (index < 0 || index >= rows.size()) {
            throw new SQLException(index < 0 ? "the cursor is before the first row; call next()"
                    : "the cursor is after the last row");
        }
        Object v = rows.get(index).get(column(ref));
        lastWasNull = v == null;
        return v;
    }

    /** A getter: {@code getX(column)} and its variants with a scale, calendar, type or map. */
    private Object value(String name, Object[] args) throws SQLException {
        Object v = raw(args[0]);
        Object extra = args.length > 1 ? args[1] : null;
        switch (name) {
            case "getString":
            case "getNString":
                return JdbcValues.string(v);
            case "getBoolean":
                return JdbcValues.longValue(v) != 0;
            case "getByte":
                return (byte) JdbcValues.longValue(v);
            case "getShort":
                return (short) JdbcValues.longValue(v);
            case "getInt":
                return (int) JdbcValues.longValue(v);
            case "getLong":
                return JdbcValues.longValue(v);
            case "getFloat":
                return (float) JdbcValues.doubleValue(v);
            case "getDouble":
                return JdbcValues.doubleValue(v);
            case "getBigDecimal":
                BigDecimal d = JdbcValues.bigDecimal(v);
                return d != null && extra instanceof Integer
                        ? d.setScale((Integer) extra, RoundingMode.HALF_UP) : d;
            case "getBytes":
                return JdbcValues.bytes(v);
            case "getDate":
                return JdbcValues.date(inZone(v, extra));
            case "getTime":
                return JdbcValues.time(inZone(v, extra));
            case "getTimestamp":
                return JdbcValues.timestamp(inZone(v, extra));
            case "getObject":
                return object(v, extra);
            case "getBinaryStream":
            case "getAsciiStream":
            case "getUnicodeStream":
                byte[] bytes = JdbcValues.bytes(v);
                return bytes == null ? null : new ByteArrayInputStream(bytes);
            case "getCharacterStream":
            case "getNCharacterStream":
                String s = JdbcValues.string(v);
                return s == null ? null : new StringReader(s);
            default:
                throw new SQLFeatureNotSupportedException("ResultSet." + name
                        + " is not supported");
        }
    }

    private static Object object(Object v, Object extra) throws SQLException {
        if (extra == null) {
            return JdbcValues.object(v);
        }
        if (extra instanceof Class) {
            return JdbcValues.as(v, (Class<?>) extra);
        }
        if (extra instanceof Map && ((Map<?, ?>) extra).isEmpty()) {
            return JdbcValues.object(v);
        }
        throw new SQLFeatureNotSupportedException("getObject with a type map is not supported");
    }

    /**
     * Text read with a calendar is a local date-time in the calendar's zone: converted here to
     * the epoch milliseconds it stands for; other values are absolute already.
     */
    private static Object inZone(Object v, Object calendar) throws SQLException {
        if (!(calendar instanceof Calendar) || !(v instanceof String)
                || ((String) v).isBlank()) {
            return v;
        }
        java.sql.Timestamp local = JdbcValues.timestamp(v);
        return local.toLocalDateTime().atZone(((Calendar) calendar).getTimeZone().toZoneId())
                .toInstant().toEpochMilli();
    }

    // ------------------------------------------------------------------ metadata

    private ResultSetMetaData metaData() {
        return META_DATA.create((proxy, method, args) -> metaDataCall(proxy, method.getName(),
                args));
    }

    private Object metaDataCall(Object proxy, String name, Object[] args) throws SQLException {
        switch (name) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "ResultSetMetaData" + data.labels();
            case "unwrap":
                return unwrap(proxy, (Class<?>) args[0]);
            case "isWrapperFor":
                return ((Class<?>) args[0]).isInstance(proxy);
            case "getColumnCount":
                return data.labels().size();
            default:
                break;
        }
        int i = column(args[0]);
        String typeName = data.declaredTypes().get(i);
        switch (name) {
            case "getColumnLabel":
                return data.labels().get(i);
            case "getColumnName":
                return data.names().get(i);
            case "getColumnTypeName":
                return typeName.isEmpty() ? "NUMERIC" : typeName.toUpperCase(java.util.Locale.ROOT);
            case "getColumnType":
                return jdbcType(typeName, firstValue(i));
            case "getColumnClassName":
                Object v = firstValue(i);
                return (v == null ? Object.class : JdbcValues.object(v).getClass()).getName();
            case "getTableName":
            case "getSchemaName":
            case "getCatalogName":
                return "";
            case "isNullable":
                return ResultSetMetaData.columnNullableUnknown;
            case "isAutoIncrement":
            case "isCurrency":
            case "isWritable":
            case "isDefinitelyWritable":
                return false;
            case "isCaseSensitive":
            case "isSearchable":
            case "isReadOnly":
                return true;
            case "isSigned":
                int t = jdbcType(typeName, firstValue(i));
                return t == Types.INTEGER || t == Types.BIGINT || t == Types.REAL
                        || t == Types.DOUBLE || t == Types.NUMERIC || t == Types.DECIMAL
                        || t == Types.FLOAT;
            case "getPrecision":
            case "getScale":
                return 0;
            case "getColumnDisplaySize":
                return Integer.MAX_VALUE;
            default:
                throw new SQLFeatureNotSupportedException("ResultSetMetaData." + name
                        + " is not supported");
        }
    }

    private Object firstValue(int column) {
        for (Row row : rows) {
            Object v = row.get(column);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * The JDBC type sqlite-jdbc reports for a column: by the value's storage class (integer,
     * real, text, blob; NULL fits each) and, within it, the declared type's name.
     */
    static int jdbcType(String declared, Object value) {
        String t = declared.toUpperCase(java.util.Locale.ROOT);
        boolean isNull = value == null;
        if (value instanceof Long || isNull) {
            Integer named = namedInteger(t);
            if (named != null) {
                return named;
            }
            if (value instanceof Long || t.equals("INT") || t.equals("INTEGER")
                    || t.equals("MEDIUMINT")) {
                long l = value instanceof Long ? (Long) value : 0;
                return l > Integer.MAX_VALUE || l < Integer.MIN_VALUE ? Types.BIGINT
                        : Types.INTEGER;
            }
        }
        if (value instanceof Double || isNull) {
            switch (t) {
                case "DECIMAL":
                    return Types.DECIMAL;
                case "DOUBLE":
                case "DOUBLE PRECISION":
                    return Types.DOUBLE;
                case "NUMERIC":
                    return Types.NUMERIC;
                case "REAL":
                    return Types.REAL;
                default:
                    if (value instanceof Double || t.equals("FLOAT")) {
                        return Types.FLOAT;
                    }
            }
        }
        if (value instanceof String || isNull) {
            switch (t) {
                case "CHARACTER":
                case "NCHAR":
                case "NATIVE CHARACTER":
                case "CHAR":
                    return Types.CHAR;
                case "CLOB":
                    return Types.CLOB;
                case "DATE":
                    return Types.DATE;
                case "DATETIME":
                case "TIMESTAMP":
                    return Types.TIMESTAMP;
                default:
                    if (value instanceof String || t.equals("VARCHAR")
                            || t.equals("VARYING CHARACTER") || t.equals("NVARCHAR")
                            || t.equals("TEXT")) {
                        return Types.VARCHAR;
                    }
            }
        }
        if (value instanceof byte[] || isNull) {
            if (t.equals("BINARY")) {
                return Types.BINARY;
            }
            if (value instanceof byte[] || t.equals("BLOB")) {
                return Types.BLOB;
            }
        }
        return Types.NUMERIC;
    }

    private static Integer namedInteger(String t) {
        switch (t) {
            case "BOOLEAN":
                return Types.BOOLEAN;
            case "TINYINT":
                return Types.TINYINT;
            case "SMALLINT":
            case "INT2":
                return Types.SMALLINT;
            case "BIGINT":
            case "INT8":
            case "UNSIGNED BIG INT":
                return Types.BIGINT;
            case "DATE":
                return Types.DATE;
            case "DATETIME":
            case "TIMESTAMP":
                return Types.TIMESTAMP;
            default:
                return null;
        }
    }
}

package dev.lanes.internal.jdbc;

import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.Locale;

/**
 * The {@link ResultSetMetaData} of a {@link DetachedResultSet}: column labels, names and declared
 * types as the read kept them, and the JDBC type sqlite-jdbc would report, which depends on the
 * declared type and on the storage class of a value (the column's first non-null value stands
 * for it here, since the rows are all read). What it cannot know (table, schema, precision) is
 * empty or 0, as sqlite-jdbc reports for an expression; what JDBC lets a driver refuse fails
 * with {@link SQLFeatureNotSupportedException}.
 *
 * <p>Immutable over immutable data: safe from any thread.
 */
final class DetachedMetaData {
    private static final Proxies<ResultSetMetaData> PROXIES =
            Proxies.of(ResultSetMetaData.class);

    private final ResultData data;

    private DetachedMetaData(ResultData data) {
        this.data = data;
    }

    /** The metadata of {@code data}'s columns. */
    static ResultSetMetaData of(ResultData data) {
        DetachedMetaData meta = new DetachedMetaData(data);
        return PROXIES.create((proxy, method, args) -> meta.call(proxy, method.getName(), args));
    }

    private Object call(Object proxy, String name, Object[] args) throws SQLException {
        switch (name) {
            case "toString":
                return "ResultSetMetaData" + data.labels();
            case "getColumnCount":
                return data.labels().size();
            default:
                return column(name, DetachedResultSet.columnIndex(data, args[0]));
        }
    }

    /** A property of column {@code i} (0-based). */
    private Object column(String name, int i) throws SQLException {
        String typeName = data.declaredTypes().get(i);
        switch (name) {
            case "getColumnLabel":
                return data.labels().get(i);
            case "getColumnName":
                return data.names().get(i);
            case "getColumnTypeName":
                return typeName.isEmpty() ? "NUMERIC" : typeName.toUpperCase(Locale.ROOT);
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
                return isSigned(jdbcType(typeName, firstValue(i)));
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

    private static boolean isSigned(int t) {
        return t == Types.INTEGER || t == Types.BIGINT || t == Types.REAL || t == Types.DOUBLE
                || t == Types.NUMERIC || t == Types.DECIMAL || t == Types.FLOAT;
    }

    private Object firstValue(int column) {
        for (Row row : data.rows()) {
            Object v = row.get(column);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * The JDBC type sqlite-jdbc reports for a column: by the value's storage class (integer,
     * real, text, blob; NULL fits each, tried in that order) and, within it, the declared type's
     * name; {@code NUMERIC} when no class claims it.
     */
    static int jdbcType(String declared, Object value) {
        String t = declared.toUpperCase(Locale.ROOT);
        boolean isNull = value == null;
        Integer type = null;
        if (value instanceof Long || isNull) {
            type = integerType(t, value);
        }
        if (type == null && (value instanceof Double || isNull)) {
            type = realType(t, value);
        }
        if (type == null && (value instanceof String || isNull)) {
            type = textType(t, value);
        }
        if (type == null && (value instanceof byte[] || isNull)) {
            type = blobType(t, value);
        }
        return type == null ? Types.NUMERIC : type;
    }

    /** An integer (or NULL): a named integer type, else INTEGER or BIGINT by magnitude. */
    private static Integer integerType(String t, Object value) {
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
            default:
                break;
        }
        Integer date = dateType(t);
        if (date != null) {
            return date;
        }
        if (value instanceof Long || t.equals("INT") || t.equals("INTEGER")
                || t.equals("MEDIUMINT")) {
            long l = value instanceof Long ? (Long) value : 0;
            return l > Integer.MAX_VALUE || l < Integer.MIN_VALUE ? Types.BIGINT : Types.INTEGER;
        }
        return null;
    }

    /** A real (or NULL). */
    private static Integer realType(String t, Object value) {
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
                return value instanceof Double || t.equals("FLOAT") ? Types.FLOAT : null;
        }
    }

    /** A text (or NULL). */
    private static Integer textType(String t, Object value) {
        switch (t) {
            case "CHARACTER":
            case "NCHAR":
            case "NATIVE CHARACTER":
            case "CHAR":
                return Types.CHAR;
            case "CLOB":
                return Types.CLOB;
            default:
                break;
        }
        Integer date = dateType(t);
        if (date != null) {
            return date;
        }
        return value instanceof String || t.equals("VARCHAR") || t.equals("VARYING CHARACTER")
                || t.equals("NVARCHAR") || t.equals("TEXT") ? Types.VARCHAR : null;
    }

    /** A date or time stored as an integer or as text. */
    private static Integer dateType(String t) {
        switch (t) {
            case "DATE":
                return Types.DATE;
            case "DATETIME":
            case "TIMESTAMP":
                return Types.TIMESTAMP;
            default:
                return null;
        }
    }

    /** A blob (or NULL). */
    private static Integer blobType(String t, Object value) {
        if (t.equals("BINARY")) {
            return Types.BINARY;
        }
        return value instanceof byte[] || t.equals("BLOB") ? Types.BLOB : null;
    }
}

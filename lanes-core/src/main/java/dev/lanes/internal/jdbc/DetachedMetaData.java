package dev.lanes.internal.jdbc;

import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@link ResultSetMetaData} of a {@link DetachedResultSet}: column labels, names and declared
 * types as the read kept them, and the JDBC type sqlite-jdbc would report, which depends on the
 * declared type and on the storage class of a value (the column's first non-null value stands
 * for it here, since the rows are all read). What it cannot know (table, schema, precision) is
 * empty or 0, as sqlite-jdbc reports for an expression. Every column call checks its index
 * first. Equality is identity; {@code unwrap} gives the metadata itself.
 *
 * <p>The declared types come with the result, except for an auto-commit read of a text whose
 * results' types were never asked for (see {@link TypesAsked}): reading them costs a native
 * call per column on every read, about a fifteenth of a point read, for what few callers ask.
 * Then the first type asked finds them ({@link DeclaredTypes}: the text prepared again on a
 * reader, without running it), and marks the text, whose later reads carry their types again.
 * So such a result reports the types of the schema when they are first asked, not when it was
 * read; the two differ only for a schema changed in between, and one whose columns changed
 * reports none (each column's type then follows its first value, as for an expression).
 *
 * <p>Concurrency: immutable over immutable data but for {@link #found}, which is written once
 * (a racing second find writes an equal list): safe from any thread.
 */
final class DetachedMetaData implements ResultSetMetaData, OwnWrapper {
    /** sqlite-jdbc's pattern for the type of {@code cast(x as type)} in a column's name. */
    private static final Pattern CAST = Pattern.compile("cast\\(.*?\\s+as\\s+(.*?)\\s*\\)");

    /** Finds the declared types of a result read without them. */
    @FunctionalInterface
    interface DeclaredTypes {
        List<String> find() throws SQLException;
    }

    private final ResultData data;
    /** Finds the declared types when {@code data} has none; null when it has them. */
    private final DeclaredTypes source;
    /** The declared types {@link #source} found; null until then. */
    private volatile List<String> found;

    DetachedMetaData(ResultData data) {
        this(data, null);
    }

    DetachedMetaData(ResultData data, DeclaredTypes source) {
        this.data = data;
        this.source = source;
    }

    /** The declared types: the result's, else found once. */
    private List<String> declaredTypes() throws SQLException {
        List<String> types = data.declaredTypes();
        if (types != null) {
            return types;
        }
        types = found;
        if (types == null) {
            types = source == null ? Collections.nCopies(data.labels().size(), null)
                    : source.find();
            found = types;
        }
        return types;
    }

    /** The 0-based index of the column with this 1-based index, checked. */
    private int checked(int column) throws SQLException {
        return DetachedResultSet.columnIndex(data, column);
    }

    /**
     * The type name sqlite-jdbc's {@code getColumnTypeName} gives the column with this 1-based
     * index: the declared type up to a parenthesis, upper-cased; for an expression, the type of a
     * cast in its name ({@code cast(x as text)}, as written in lower case), else the storage
     * class of the first row's value ({@code NUMERIC} for NULL or no row), which is what the
     * driver finds when it is asked right after the query ran.
     */
    private String typeName(int column) throws SQLException {
        int i = checked(column);
        String declared = declaredTypes().get(i);
        if (declared == null) {
            Matcher cast = CAST.matcher(data.names().get(i));
            declared = cast.find() ? cast.group(1) : null;
        }
        if (declared != null) {
            int paren = declared.indexOf('(');
            return (paren < 0 ? declared : declared.substring(0, paren))
                    .toUpperCase(Locale.ENGLISH);
        }
        Object first = data.rows().isEmpty() ? null : data.rows().get(0).get(i);
        return first instanceof Long ? "INTEGER" : first instanceof Double ? "FLOAT"
                : first instanceof byte[] ? "BLOB" : first instanceof String ? "TEXT"
                : "NUMERIC";
    }

    @Override
    public int getColumnCount() {
        return data.labels().size();
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return data.labels().get(DetachedResultSet.columnIndex(data, column));
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return data.names().get(DetachedResultSet.columnIndex(data, column));
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        String typeName = typeName(column);
        return typeName.isEmpty() ? "NUMERIC" : typeName;
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return jdbcType(typeName(column), firstValue(column - 1));
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        Object v = firstValue(checked(column));
        return (v == null ? Object.class : JdbcValues.object(v).getClass()).getName();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        checked(column);
        return "";
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        checked(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        checked(column);
        return "";
    }

    @Override
    public int isNullable(int column) throws SQLException {
        checked(column);
        return ResultSetMetaData.columnNullableUnknown;
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        checked(column);
        return false;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        checked(column);
        return false;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        checked(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        checked(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        checked(column);
        return true;
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        checked(column);
        return true;
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        checked(column);
        return true;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return signedType(getColumnType(column));
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        checked(column);
        return 0;
    }

    @Override
    public int getScale(int column) throws SQLException {
        checked(column);
        return 0;
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        checked(column);
        return Integer.MAX_VALUE;
    }

    @Override
    public String toString() {
        return "ResultSetMetaData" + data.labels();
    }

    private static boolean signedType(int t) {
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

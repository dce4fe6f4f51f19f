package dev.lanes.internal.sql;

import dev.lanes.Row;
import dev.lanes.internal.sqlite.DriverInternals;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A query's result read off its connection: the rows and what a JDBC caller asks of their
 * columns (label, name, declared type), so that it outlives the statement, the connection and
 * the thread that read it. Immutable.
 *
 * @param labels each column's label ({@code AS} name, else its name)
 * @param names each column's name as the driver reports it (sqlite-jdbc: the label)
 * @param declaredTypes each column's declared type as SQLite gives it ({@code
 *     sqlite3_column_decltype}: {@code INTEGER}, {@code varchar(10)}, …), or null for an
 *     expression; a JDBC type name is made of it only when one is asked for. The list itself
 *     is null when the read was told not to read them ({@link RowReader#declaredTypes()}): the
 *     data source then finds them when they are asked for ({@link #declaredTypesOf})
 * @param rows the rows, values as {@link Rows} reads them
 */
public record ResultData(List<String> labels, List<String> names, List<String> declaredTypes,
        List<Row> rows) {
    /** Reads the schema table: its step loads the schema if it changed since the last one. */
    private static final String CURRENT_SCHEMA = "SELECT count(*) FROM sqlite_master";

    /**
     * Reads the whole result, at most {@code maxBytes} of it (see {@link Rows#read}), with its
     * column metadata. The labels are the ones the driver fetched in one call when the query ran,
     * and with sqlite-jdbc they are the names too (it answers {@code getColumnName} with {@code
     * sqlite3_column_name}, the label): asking the metadata for both cost two native calls per
     * column, a tenth of a point read through the data source. The declared types are asked per
     * query (unless the reader says not to, {@link RowReader#declaredTypes()}): a cached
     * statement's can change under it (a table dropped and created again with
     * other types), and nothing cheaper tells. They are asked raw, all in one call on the
     * statement: the driver's {@code getColumnTypeName} runs a regular expression per column,
     * another tenth of a point read, for a type name few callers ever ask for.
     */
    public static ResultData read(ResultSet rs, long maxBytes, String database, String sql)
            throws SQLException {
        return read(rs, (r, labels) -> Rows.read(r, labels, maxBytes, database, sql));
    }

    /** Reads the rows of a result whose column labels are known: all, or one page of them. */
    @FunctionalInterface
    public interface RowReader {
        List<Row> read(ResultSet rs, List<String> labels) throws SQLException;

        /**
         * Whether the declared types are read with the rows. Each costs a native call that
         * makes a direct buffer and a string, about a fifteenth of a point read through the
         * data source, for what few callers ask; a caller that can find them later says no.
         */
        default boolean declaredTypes() {
            return true;
        }
    }

    /** {@link #read(ResultSet, long, String, String)}, the rows read by {@code reader}. */
    public static ResultData read(ResultSet rs, RowReader reader) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        List<String> labels = List.of(Rows.labels(rs, meta, n));
        List<String> names = DriverInternals.isDriverResultSet(rs) ? labels : names(meta, n);
        List<String> types = reader.declaredTypes() ? declaredTypes(rs.getStatement(), meta, n)
                : null;
        List<Row> rows = reader.read(rs, labels);
        return new ResultData(labels, names, types, rows);
    }

    /**
     * The declared types of a result not read with them ({@link RowReader#declaredTypes()}),
     * found by preparing its {@code sql} again on {@code c}, without running it: SQLite gives a
     * prepared statement's declared types before it steps. A prepare compiles against the schema
     * the connection last loaded, and only a step checks it is still current; so a statement on
     * the schema table steps first, which loads a schema changed since. The types are then those
     * of the schema now; when its columns are no longer {@code labels} (the schema changed since
     * the result was read), none is known, and each is null, as for an expression.
     */
    public static List<String> declaredTypesOf(Connection c, String sql, List<String> labels)
            throws SQLException {
        try (Statement check = c.createStatement();
                ResultSet rs = check.executeQuery(CURRENT_SCHEMA)) {
            rs.next();
        }
        try (PreparedStatement s = c.prepareStatement(sql)) {
            ResultSetMetaData meta = s.getMetaData();
            int n = meta == null ? 0 : meta.getColumnCount();
            boolean same = n == labels.size();
            for (int i = 0; same && i < n; i++) {
                same = labels.get(i).equals(meta.getColumnLabel(i + 1));
            }
            return same ? declaredTypes(s, meta, n)
                    : Collections.nCopies(labels.size(), null);
        }
    }

    /** Each column's declared type, null for an expression, as {@code s} has them now. */
    private static List<String> declaredTypes(Statement s, ResultSetMetaData meta, int n)
            throws SQLException {
        String[] types = DriverInternals.declaredTypes(s, n);
        if (types == null) {
            types = new String[n]; // another driver: its type names stand for the declarations
            for (int i = 0; i < n; i++) {
                types[i] = meta.getColumnTypeName(i + 1);
            }
        }
        return Collections.unmodifiableList(Arrays.asList(types));
    }

    private static List<String> names(ResultSetMetaData meta, int n) throws SQLException {
        List<String> names = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            String name = meta.getColumnName(i);
            names.add(name == null ? meta.getColumnLabel(i) : name);
        }
        return List.copyOf(names);
    }
}

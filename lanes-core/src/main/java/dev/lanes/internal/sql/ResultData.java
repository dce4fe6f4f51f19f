package dev.lanes.internal.sql;

import dev.lanes.Row;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.sqlite.core.CoreResultSet;
import org.sqlite.core.CoreStatement;

/**
 * A query's result read off its connection: the rows and what a JDBC caller asks of their
 * columns (label, name, declared type), so that it outlives the statement, the connection and
 * the thread that read it. Immutable.
 *
 * @param labels each column's label ({@code AS} name, else its name)
 * @param names each column's name as the driver reports it (sqlite-jdbc: the label)
 * @param declaredTypes each column's declared type as SQLite gives it ({@code
 *     sqlite3_column_decltype}: {@code INTEGER}, {@code varchar(10)}, …), or null for an
 *     expression; a JDBC type name is made of it only when one is asked for
 * @param rows the rows, values as {@link Rows} reads them
 */
public record ResultData(List<String> labels, List<String> names, List<String> declaredTypes,
        List<Row> rows) {

    /**
     * Reads the whole result, at most {@code maxBytes} of it (see {@link Rows#read}), with its
     * column metadata. The labels are the ones the driver fetched in one call when the query ran,
     * and with sqlite-jdbc they are the names too (it answers {@code getColumnName} with {@code
     * sqlite3_column_name}, the label): asking the metadata for both cost two native calls per
     * column, a tenth of a point read through the data source. The declared types are asked per
     * query: a cached statement's can change under it (a table dropped and created again with
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
    }

    /** {@link #read(ResultSet, long, String, String)}, the rows read by {@code reader}. */
    public static ResultData read(ResultSet rs, RowReader reader) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        List<String> labels = List.of(Rows.labels(rs, meta, n));
        List<String> names = rs instanceof CoreResultSet ? labels : names(meta, n);
        List<String> types = declaredTypes(rs, meta, n);
        List<Row> rows = reader.read(rs, labels);
        return new ResultData(labels, names, types, rows);
    }

    /** Each column's declared type, null for an expression; read before the rows are. */
    private static List<String> declaredTypes(ResultSet rs, ResultSetMetaData meta, int n)
            throws SQLException {
        String[] types;
        if (rs.getStatement() instanceof CoreStatement) {
            types = ((CoreStatement) rs.getStatement()).pointer.safeRun((db, pointer) -> {
                String[] declared = new String[n];
                for (int i = 0; i < n; i++) {
                    declared[i] = db.column_decltype(pointer, i);
                }
                return declared;
            });
        } else {
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

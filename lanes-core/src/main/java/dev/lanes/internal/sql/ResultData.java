package dev.lanes.internal.sql;

import dev.lanes.Row;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A query's result read off its connection: the rows and what a JDBC caller asks of their
 * columns (label, name, declared type), so that it outlives the statement, the connection and
 * the thread that read it. Immutable.
 *
 * @param labels each column's label ({@code AS} name, else its name)
 * @param names each column's name in its table, or its label for an expression
 * @param declaredTypes each column's declared type ({@code INTEGER}, {@code TEXT}, …), or the
 *     empty string for an expression
 * @param rows the rows, values as {@link Rows} reads them
 */
public record ResultData(List<String> labels, List<String> names, List<String> declaredTypes,
        List<Row> rows) {

    /**
     * Reads the whole result, at most {@code maxBytes} of it (see {@link Rows#read}), with its
     * column metadata.
     */
    public static ResultData read(ResultSet rs, long maxBytes, String database, String sql)
            throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        List<String> labels = new ArrayList<>(n);
        List<String> names = new ArrayList<>(n);
        List<String> types = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            labels.add(meta.getColumnLabel(i));
            String name = meta.getColumnName(i);
            names.add(name == null ? meta.getColumnLabel(i) : name);
            String type = meta.getColumnTypeName(i);
            types.add(type == null ? "" : type);
        }
        List<Row> rows = Rows.read(rs, maxBytes, database, sql);
        return new ResultData(List.copyOf(labels), List.copyOf(names), List.copyOf(types), rows);
    }
}

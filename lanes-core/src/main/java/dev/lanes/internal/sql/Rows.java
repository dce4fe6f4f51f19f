package dev.lanes.internal.sql;

import dev.lanes.Row;
import dev.lanes.internal.types.Parameters;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Binds positional arguments and reads results into detached {@link Row}s. */
public final class Rows {
    private Rows() {}

    public static void bind(PreparedStatement s, Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, Parameters.encode(args[i], i + 1));
        }
    }

    /** Reads every row; values are Long, Double, String, byte[] or null. */
    public static List<Row> read(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            labels[i] = meta.getColumnLabel(i + 1);
        }
        List<String> columns = List.of(labels);
        List<Row> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] values = new Object[n];
            for (int i = 0; i < n; i++) {
                Object v = rs.getObject(i + 1);
                values[i] = v instanceof Integer ? Long.valueOf((Integer) v) : v;
            }
            rows.add(Row.of(columns, values));
        }
        return rows;
    }

    static String describe(String sql, Object[] args) {
        return args.length == 0 ? sql : sql + " " + Arrays.toString(args);
    }
}

package dev.lanes.internal.sql;

import dev.lanes.ResultTooLargeException;
import dev.lanes.Row;
import dev.lanes.internal.sqlite.DriverInternals;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.types.Parameters;
import dev.lanes.internal.types.ValueConvention;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Binds positional arguments, and reads results into detached {@link Row}s while keeping count of
 * their size, stopping with {@link ResultTooLargeException} as soon as the count passes the
 * limit, before the rest of the result is stepped or held.
 *
 * <p>The size is an estimate of what the rows hold: 8 bytes per integer or real, one byte per
 * character of text, a blob's length, nothing for NULL. Stateless.
 */
public final class Rows {
    /** No limit on a result's size. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private Rows() {}

    /**
     * Binds {@code args} to the parameters of {@code s}, each stored by {@link ValueConvention}; as
     * many arguments as the statement has parameters, or {@link
     * dev.lanes.InvalidRequestException} before SQLite runs anything.
     */
    public static void bind(PreparedStatement s, Object[] args) throws SQLException {
        Parameters.checkCount(s.getParameterMetaData().getParameterCount(), args.length);
        for (int i = 0; i < args.length; i++) {
            s.setObject(i + 1, ValueConvention.store(args[i], i + 1));
        }
    }

    /** Reads every row, without a size limit; values are Long, Double, String, byte[] or null. */
    public static List<Row> read(ResultSet rs) throws SQLException {
        return read(rs, UNLIMITED, null, null);
    }

    /**
     * Reads every row; values are Long, Double, String, byte[] or null.
     *
     * @param maxBytes the size the rows may reach; {@link #UNLIMITED} for no limit
     * @param name the database, for the message
     * @param sql the query, for the message
     */
    public static List<Row> read(ResultSet rs, long maxBytes, String name, String sql)
            throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        return read(rs, List.of(labels(rs, meta, meta.getColumnCount())), maxBytes, name, sql);
    }

    /** {@link #read(ResultSet, long, String, String)} with the column labels already known. */
    static List<Row> read(ResultSet rs, List<String> columns, long maxBytes, String name,
            String sql) throws SQLException {
        int n = columns.size();
        List<Row> rows = new ArrayList<>();
        boolean bounded = maxBytes != UNLIMITED;
        long bytes = 0;
        while (rs.next()) {
            Object[] values = values(rs, n);
            if (bounded) {
                bytes += sizeOf(values);
            }
            if (bounded && bytes > maxBytes) {
                throw tooLarge(name, sql, maxBytes, rows.size() + 1);
            }
            rows.add(Row.of(columns, values));
        }
        return rows;
    }

    /**
     * The failure of a query whose rows grew past {@code maxBytes} at row {@code row}: one
     * message for every engine.
     */
    public static ResultTooLargeException tooLarge(String name, String sql, long maxBytes,
            long row) {
        return new ResultTooLargeException(name + ": the result of '" + StatementShape.shorten(sql)
                + "' grew past maxResultBytes (" + maxBytes + " bytes) at row " + row + "; read "
                + "a large result with db.stream, which holds one row at a time, or narrow the "
                + "query (LIMIT, fewer columns), page through it, or raise maxResultBytes");
    }

    /**
     * Hands every row to {@code each} as it is stepped, holding none: a result of any size in
     * bounded memory, so no size limit applies. An exception from {@code each} stops the read and
     * propagates unchanged.
     *
     * @return the rows handed over
     */
    public static long stream(ResultSet rs, Consumer<Row> each) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        List<String> columns = List.of(labels(rs, meta, n));
        long rows = 0;
        while (rs.next()) {
            each.accept(Row.of(columns, values(rs, n)));
            rows++;
        }
        return rows;
    }

    /** The current row's values: Long, Double, String, byte[] or null. */
    public static Object[] values(ResultSet rs, int n) throws SQLException {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            Object v = rs.getObject(i + 1);
            values[i] = v instanceof Integer ? Long.valueOf((Integer) v) : v;
        }
        return values;
    }

    /**
     * The column labels. The driver fetched all of them in one native call when the query ran
     * ({@code CoreResultSet.colsMeta}, read by {@link DriverInternals#columnLabels}); asking the metadata instead costs one
     * more native call per column, a measurable share of a point read.
     */
    static String[] labels(ResultSet rs, ResultSetMetaData meta, int n)
            throws SQLException {
        String[] names = DriverInternals.columnLabels(rs);
        if (names != null && names.length == n) {
            return names;
        }
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            labels[i] = meta.getColumnLabel(i + 1);
        }
        return labels;
    }

    /** The logical size of one row's values, as the limit counts it. */
    public static long sizeOf(Object[] values) {
        long bytes = 0;
        for (Object v : values) {
            bytes += sizeOf(v);
        }
        return bytes;
    }

    /** The logical size of one value, as the limit counts it. */
    public static long sizeOf(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof String) {
            return ((String) v).length();
        }
        if (v instanceof byte[]) {
            return ((byte[]) v).length;
        }
        return 8;
    }
}

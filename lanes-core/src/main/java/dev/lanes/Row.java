package dev.lanes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One row of a query result, detached from the connection. Columns are looked up by label,
 * ignoring case, or by zero-based position. Values are what SQLite stored: {@code Long}, {@code
 * Double}, {@code String}, {@code byte[]} or {@code null}.
 */
public final class Row {
    private final List<String> columns;
    private final Object[] values;

    private Row(List<String> columns, Object[] values) {
        this.columns = columns;
        this.values = values;
    }

    /**
     * A row with these column labels and values. The labels list is shared, not copied, so that
     * every row of one result can use the same one; it must not change afterwards.
     */
    public static Row of(List<String> columns, Object[] values) {
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(values, "values");
        if (columns.size() != values.length) {
            throw new IllegalArgumentException(
                    columns.size() + " columns but " + values.length + " values");
        }
        return new Row(Collections.unmodifiableList(columns), values.clone());
    }

    /** The column labels, in result order. */
    public List<String> columns() {
        return columns;
    }

    /** The number of columns. */
    public int size() {
        return values.length;
    }

    /** The value at a zero-based position. */
    public Object get(int index) {
        if (index < 0 || index >= values.length) {
            throw new IndexOutOfBoundsException(
                    "column " + index + " of a row with " + values.length + " columns");
        }
        return values[index];
    }

    /** The value of the column with this label (case-insensitive). */
    public Object get(String column) {
        return values[indexOf(column)];
    }

    /** The column's value as a {@code Long}, or {@code null} when it is NULL. */
    public Long getLong(String column) {
        Object v = get(column);
        if (v == null || v instanceof Long) {
            return (Long) v;
        }
        if (v instanceof Number) {
            return ((Number) v).longValue();
        }
        if (v instanceof String) {
            return Long.valueOf((String) v);
        }
        throw new ClassCastException("column '" + column + "' holds " + v.getClass().getSimpleName()
                + ", not a number");
    }

    /** The column's value as a {@code String}, or {@code null} when it is NULL. */
    public String getString(String column) {
        Object v = get(column);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        if (v instanceof byte[]) {
            return new String((byte[]) v, java.nio.charset.StandardCharsets.UTF_8);
        }
        return v.toString();
    }

    /** The column's value as a {@code Double}, or {@code null} when it is NULL. */
    public Double getDouble(String column) {
        Object v = get(column);
        if (v == null) {
            return null;
        }
        if (v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        return Double.valueOf(v.toString());
    }

    /** The values, in column order. */
    public List<Object> values() {
        return Collections.unmodifiableList(new ArrayList<>(Arrays.asList(values)));
    }

    private int indexOf(String column) {
        for (int i = 0; i < values.length; i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column '" + column + "' in " + columns);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row && columns.equals(((Row) o).columns)
                && Arrays.deepEquals(values, ((Row) o).values);
    }

    @Override
    public int hashCode() {
        return 31 * columns.hashCode() + Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Row{");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            Object v = values[i];
            s.append(columns.get(i)).append('=')
                    .append(v instanceof byte[] ? "<" + ((byte[]) v).length + " bytes>" : v);
        }
        return s.append('}').toString();
    }
}

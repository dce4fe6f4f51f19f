package dev.lanes.dqlite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The whole result set of a query, every batch the server sent, in order.
 *
 * <p>A value is {@code null} (SQL NULL), a {@link Long} (INTEGER), a {@link Double} (FLOAT), a
 * {@link String} (TEXT), a {@code byte[]} (BLOB), a {@link Boolean} (a column declared {@code
 * BOOLEAN}), an {@link java.time.Instant} (an integer in a column declared {@code DATETIME},
 * {@code DATE} or {@code TIMESTAMP}: dqlite's UNIXTIME) or an {@link java.time.OffsetDateTime}
 * (text in such a column: dqlite's ISO8601; text that is no date stays a {@link String}).
 *
 * <p>Two quirks of the server (libdqlite 1.11) show here: a NULL in a {@code BOOLEAN} column
 * arrives as {@code false}, and a NULL in a {@code DATETIME} column as {@code null} only because
 * the server sends it as empty ISO8601 text.
 *
 * @param columns the column names
 * @param rows the rows; each row has one value per column
 */
public record DqliteRows(List<String> columns, List<List<Object>> rows) {
    public DqliteRows {
        columns = List.copyOf(columns);
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(
                        "a row of " + row.size() + " values for " + columns.size() + " columns");
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
    }

    /** The number of rows. */
    public int size() {
        return rows.size();
    }

    /** The value in {@code row} (from 0) of the named column. */
    public Object get(int row, String column) {
        int index = columns.indexOf(Objects.requireNonNull(column, "column"));
        if (index < 0) {
            throw new IllegalArgumentException("no column " + column + " in " + columns);
        }
        return rows.get(row).get(index);
    }
}

package dev.lanes.internal.types;

import dev.lanes.MappingException;
import dev.lanes.Row;
import dev.lanes.RowMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link dev.lanes.Database} and {@link dev.lanes.Transaction} do with a query's rows for
 * their mapping methods: map each, or expect at most one.
 */
public final class Results {
    /** The most characters of SQL an error message shows. */
    private static final int SHOWN_SQL = 200;

    private Results() {}

    /** Each row mapped, in order. */
    public static <T> List<T> map(List<Row> rows, RowMapper<T> mapper) {
        List<T> out = new ArrayList<>(rows.size());
        for (Row row : rows) {
            out.add(mapper.map(row));
        }
        return out;
    }

    /** The only row, empty when there is none. */
    public static Optional<Row> one(List<Row> rows, String sql) {
        return rows.isEmpty() ? Optional.empty() : Optional.of(only(rows, sql));
    }

    /** The only row mapped; empty when there is no row or the mapper returned null. */
    public static <T> Optional<T> one(List<Row> rows, RowMapper<T> mapper, String sql) {
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(mapper.map(only(rows, sql)));
    }

    /** The only record; empty when there is no row. */
    public static <R> Optional<R> oneRecord(List<Row> rows, RecordPlan<R> plan, String sql) {
        return rows.isEmpty() ? Optional.empty() : Optional.of(plan.map(only(rows, sql)));
    }

    /** Refuses a null mapper before the query runs. */
    public static <T> RowMapper<T> check(RowMapper<T> mapper) {
        return Objects.requireNonNull(mapper, "mapper");
    }

    private static Row only(List<Row> rows, String sql) {
        if (rows.size() > 1) {
            throw new MappingException("expected at most one row, but the query returned "
                    + rows.size() + ": " + (sql.length() > SHOWN_SQL
                    ? sql.substring(0, SHOWN_SQL) + "…" : sql));
        }
        return rows.get(0);
    }
}

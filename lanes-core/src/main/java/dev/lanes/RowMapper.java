package dev.lanes;

import dev.lanes.internal.types.RecordPlan;

/**
 * Turns one {@link Row} of a query result into a value, for {@link Queries#query(RowMapper,
 * String, Object...)} and its relatives. A row is detached from the connection, so a mapper does
 * no I/O and throws no {@link java.sql.SQLException}; a value that does not convert fails with
 * {@link MappingException} from the row's typed getters.
 *
 * <pre>{@code
 * List<String> names = db.query(row -> row.getString("name"), "SELECT name FROM person");
 * }</pre>
 *
 * @param <T> what a row becomes
 */
@FunctionalInterface
public interface RowMapper<T> {
    /**
     * Maps one row.
     *
     * @param row the row, detached from the connection
     * @return the value the row stands for
     */
    T map(Row row);

    /**
     * A mapper that builds a record from each row, by the rules of {@link Queries#queryAs(Class,
     * String, Object...)}: each component from the column of the same name, {@code snake_case}
     * columns matching {@code camelCase} components, converted as {@link Row#get(String, Class)}
     * converts. It may be shared between threads and reused across queries; it finds the columns
     * again only when a row's column labels differ from the previous row's.
     *
     * @throws IllegalArgumentException when a component has a type no column can hold (see
     *     {@link Queries#queryAs(Class, String, Object...)}), or the record's constructor is not
     *     accessible
     */
    static <R extends Record> RowMapper<R> forRecord(Class<R> recordType) {
        return RecordPlan.of(recordType)::map;
    }
}

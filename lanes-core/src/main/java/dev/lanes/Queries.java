package dev.lanes;

import dev.lanes.internal.types.RecordPlan;
import dev.lanes.internal.types.Results;
import java.util.List;
import java.util.Optional;

/**
 * The query forms, written once over {@link #query(String, Object...)}: rows, rows mapped with a
 * {@link RowMapper}, records, and the same for a query that returns at most one row. A {@link
 * Database} runs them on its readers, a {@link Reading} with per-read options, a {@link
 * Transaction} on its own connection; the mapping rules are the same everywhere. A mapping
 * failure is a {@link MappingException} and changes nothing else (in a transaction, it stays
 * open).
 */
public interface Queries {

    /**
     * Runs a query and returns its rows, detached from the connection. On a {@link Database} (or
     * a {@link Reading}) it runs on a reader connection: the statement is prepared once per
     * reader and cached; SQL that writes or controls a transaction fails with {@link
     * ReadOnlyViolationException} before anything runs; rows larger in all than {@link
     * DatabaseOptions#maxResultBytes()} fail with {@link ResultTooLargeException}; see {@link
     * Reading#read(SqlFunction)} for how reads are admitted and where they run. In a {@link
     * Transaction} it runs on the transaction's connection and sees its writes.
     */
    List<Row> query(String sql, Object... args);

    /**
     * Runs a query as {@link #query(String, Object...)} does and maps each row with {@code
     * mapper}, on the calling thread once the read is done.
     *
     * <pre>{@code
     * List<String> names = db.query(row -> row.getString("name"), "SELECT name FROM person");
     * }</pre>
     *
     * @return the mapped rows, in result order
     * @throws MappingException when a value does not convert (thrown by the row's getters)
     */
    default <T> List<T> query(RowMapper<T> mapper, String sql, Object... args) {
        return Results.map(query(sql, args), Results.check(mapper));
    }

    /**
     * Runs a query as {@link #query(String, Object...)} does and builds a {@code recordType}
     * from each row, through its canonical constructor.
     *
     * <pre>{@code
     * record Person(long id, String fullName, Instant createdAt) {}
     * List<Person> people = db.queryAs(Person.class,
     *         "SELECT id, full_name, created_at FROM person WHERE id > ?", 0);
     * }</pre>
     *
     * <p><b>Columns.</b> Each component takes the column whose label equals its name ignoring
     * case, else the one equal to it ignoring case and underscores, so {@code snake_case}
     * columns fill {@code camelCase} components ({@code full_name} → {@code fullName}). Columns
     * no component asks for are ignored. A component without a column, or with two equally
     * good ones, fails with {@link MappingException} naming it and the record, when the first
     * row is mapped (an empty result maps to an empty list without checking).
     *
     * <p><b>Types.</b> A component may be {@code long}/{@code Long}, {@code int}/{@code
     * Integer}, {@code double}/{@code Double}, {@code boolean}/{@code Boolean}, {@code String},
     * {@code byte[]}, {@code BigDecimal}, {@code UUID}, an enum, {@code Instant}, {@code
     * LocalDate}, {@code LocalDateTime}, {@code OffsetDateTime} or {@code Object}, converted as
     * {@link Row#get(String, Class)} converts (see {@link Row}). NULL gives {@code null}; for a
     * primitive component it fails with {@link MappingException} naming the column. A value that
     * does not convert fails the same way, naming the record, the component, the column, the
     * value's SQLite type and the target type. Exceptions the record's constructor throws pass
     * through unchanged.
     *
     * <p>The mapping plan (components, converters, the constructor as a method handle) is built
     * once per record type and cached, and the column positions once per result.
     *
     * @return the records, in result order
     * @throws IllegalArgumentException before the query runs, when a component's type is none
     *     of the above (a generic type such as {@code List<String>}, a nested record), or the
     *     record's constructor is not accessible to Lanes
     */
    default <R extends Record> List<R> queryAs(Class<R> recordType, String sql, Object... args) {
        RecordPlan<R> plan = RecordPlan.of(recordType);
        return plan.mapResult(query(sql, args));
    }

    /**
     * Runs a query that returns at most one row, such as a read by key, and returns that row.
     *
     * @return the row, or empty when there is none
     * @throws MappingException when the query returned more than one row (none is taken: add a
     *     key or {@code LIMIT 1} to the SQL if the first row is what you mean)
     */
    default Optional<Row> queryOne(String sql, Object... args) {
        return Results.one(query(sql, args), sql);
    }

    /**
     * {@link #queryOne(String, Object...)}, mapping the row with {@code mapper}.
     *
     * @return the mapped row; empty when there is no row, or when {@code mapper} returned
     *     {@code null} for it
     * @throws MappingException when the query returned more than one row
     */
    default <T> Optional<T> queryOne(RowMapper<T> mapper, String sql, Object... args) {
        return Results.one(query(sql, args), Results.check(mapper), sql);
    }

    /**
     * {@link #queryOne(String, Object...)}, building a {@code recordType} from the row by the
     * rules of {@link #queryAs(Class, String, Object...)}.
     *
     * @return the record, or empty when there is no row
     * @throws MappingException when the query returned more than one row, or the row does not
     *     map
     */
    default <R extends Record> Optional<R> queryOneAs(Class<R> recordType, String sql,
            Object... args) {
        RecordPlan<R> plan = RecordPlan.of(recordType);
        return Results.oneRecord(query(sql, args), plan, sql);
    }}

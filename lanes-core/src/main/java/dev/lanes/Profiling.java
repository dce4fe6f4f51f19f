package dev.lanes;

import java.util.List;

/**
 * The profiled form of a database's commands ({@link Database#profiled()}): each runs exactly as
 * its plain form does, on the same path, and returns its result with a {@link Profile}: the wait
 * before the command ran (admission, queueing, a thread hop), its execution time, the
 * parameters it bound, and the rows, columns and logical bytes it read. Profiling costs only the
 * profiled command; the plain methods collect nothing.
 */
public interface Profiling {
    /**
     * {@link Database#write(WriteOptions, SqlFunction)}, profiled. The body's connection counts
     * what the body binds and reads; a body replayed after its group was rerun counts its last
     * run only.
     */
    <T> Profiled<T> write(WriteOptions options, SqlFunction<T> body);

    /** {@link Database#execute(String, Object...)}, profiled: the same cached statement. */
    Profiled<Integer> execute(String sql, Object... args);

    /** {@link Reading#read(SqlFunction)} with {@code options}, profiled. */
    <T> Profiled<T> read(ReadOptions options, SqlFunction<T> body);

    /**
     * {@link Queries#query(String, Object...)} with {@code options}, profiled: the same cached
     * statement on a reader; {@code maxResultBytes} applies.
     */
    Profiled<List<Row>> query(ReadOptions options, String sql, Object... args);
}

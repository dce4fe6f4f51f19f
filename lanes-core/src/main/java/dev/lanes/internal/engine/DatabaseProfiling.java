package dev.lanes.internal.engine;

import dev.lanes.Profile;
import dev.lanes.Profiled;
import dev.lanes.Profiling;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOptions;
import dev.lanes.internal.telemetry.Profiler;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.writer.WriteRequest;
import java.time.Duration;
import java.util.List;

/**
 * The profiled form of one database's commands. Each runs on the path its plain form takes:
 * {@code execute} is the same statement request, on the writer's statement cache, and its
 * profile reads the request's own stamps; {@code query} is the same reader query, stamped where
 * its statement runs; a body runs on the same guarded connection, wrapped in a {@link Profiler}
 * that counts what it binds and reads. The wait is from the call until the command ran.
 *
 * <p>Stateless but for its collaborators; thread-safe.
 */
final class DatabaseProfiling implements Profiling {
    private final DatabaseImpl db;
    private final Clock clock;

    DatabaseProfiling(DatabaseImpl db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public <T> Profiled<T> write(WriteOptions options, SqlFunction<T> body) {
        return Profiler.body(clock, body, b -> db.write(options, b));
    }

    @Override
    public Profiled<Integer> execute(String sql, Object... args) {
        WriteRequest r = db.statement(sql, args);
        Integer count = db.runAndAcknowledge(r, null);
        Object[] bound = args == null ? new Object[0] : args;
        // the request's own stamps, read after its outcome arrived (the future orders them)
        return new Profiled<>(count, new Profile(Duration.ofNanos(Math.max(0, r.waitedNanos())),
                Duration.ofNanos(r.executedNanos()), bound.length, 0, 0, 0));
    }

    @Override
    public <T> Profiled<T> read(ReadOptions options, SqlFunction<T> body) {
        return Profiler.body(clock, body, b -> db.read(options, b));
    }

    @Override
    public Profiled<List<Row>> query(ReadOptions options, String sql, Object... args) {
        long[] span = new long[2];
        long called = clock.nanoTime();
        List<Row> rows = db.query(options, sql, args, span);
        long bytes = 0;
        for (Row row : rows) {
            for (int i = 0; i < row.size(); i++) {
                bytes += Profiler.sizeOf(row.get(i));
            }
        }
        boolean stamped = span[0] != 0; // corked, it ran on the lane, unstamped
        long ran = stamped ? span[0] : called;
        return new Profiled<>(rows, new Profile(Duration.ofNanos(Math.max(0, ran - called)),
                Duration.ofNanos(stamped ? span[1] - span[0] : clock.nanoTime() - called),
                args == null ? 0 : args.length, rows.size(),
                rows.isEmpty() ? 0 : rows.get(0).size(), bytes));
    }
}

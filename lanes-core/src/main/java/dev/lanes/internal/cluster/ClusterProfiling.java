package dev.lanes.internal.cluster;

import dev.lanes.Profile;
import dev.lanes.Profiled;
import dev.lanes.Profiling;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOptions;
import dev.lanes.internal.sql.Rows;
import dev.lanes.internal.telemetry.Profiler;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.writer.WriteRequest;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The profiled commands of a cluster database: statements and queries, timed from the request's
 * own stamps (a statement) or around the call (a query, which has no queue of its own); a body
 * runs on a {@link Profiler}'s counting connection, as on a local database. Stateless but for
 * its database.
 */
final class ClusterProfiling implements Profiling {
    private final ClusterDatabase db;
    private final Clock clock;

    ClusterProfiling(ClusterDatabase db, Clock clock) {
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
        Integer count = db.runAndWait(r);
        int binds = args == null ? 0 : args.length;
        return new Profiled<>(count, new Profile(Duration.ofNanos(Math.max(0, r.waitedNanos())),
                Duration.ofNanos(r.executedNanos()), binds, 0, 0, 0));
    }

    @Override
    public <T> Profiled<T> read(ReadOptions options, SqlFunction<T> body) {
        return Profiler.body(clock, body, b -> db.reading(options).read(b));
    }

    @Override
    public Profiled<List<Row>> query(ReadOptions options, String sql, Object... args) {
        Objects.requireNonNull(options, "options");
        long called = clock.nanoTime();
        List<Row> rows = db.reading(options).query(sql, args);
        long took = clock.nanoTime() - called;
        long bytes = 0;
        for (Row row : rows) {
            for (int i = 0; i < row.size(); i++) {
                bytes += Rows.sizeOf(row.get(i));
            }
        }
        return new Profiled<>(rows, new Profile(Duration.ZERO, Duration.ofNanos(took),
                args == null ? 0 : args.length, rows.size(), rows.isEmpty() ? 0
                : rows.get(0).size(), bytes));
    }
}

package dev.lanes.internal.engine;

import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.reader.ReadSnapshot;
import dev.lanes.internal.reader.Reads;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.RowStream;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.telemetry.ReadTelemetry;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterLane;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Where a database's reads run, and how they are measured. A read runs on a reader connection
 * ({@link Reads}); while the database is corked it runs on the writer lane instead, as a request
 * that writes nothing, so that it sees the corked writes (on the writer's guarded connection,
 * under the read guard too; reader deadlines do not apply there). Every read counts as use for
 * the idle release, is refused when its SQL writes, and is bracketed for the read telemetry and
 * the metrics listener: here, or by the lane for an asynchronous read while corked. (The data
 * source's queries were refused before they came here, when it classified their text.)
 *
 * <p>Concurrency: every field is final and thread-safe; a read runs on its caller's thread (or
 * is handed to the reader pool or the lane), and the cork is checked once per read, when it
 * starts.
 */
final class ReadRouting {
    private final String name;
    private final DatabaseImpl db;
    private final WriterLane lane;
    private final Reads reads;
    private final IdleRelease idle;
    private final ReadTelemetry telemetry;
    /** Told how long a paged read held its reader: {@link ReadTelemetry#held}, made once. */
    private final LongConsumer held;
    private final Clock clock;
    private final Shapes shapes;

    ReadRouting(DatabaseImpl db, WriterLane lane, Reads reads, IdleRelease idle,
            ReadTelemetry telemetry, Clock clock, Shapes shapes) {
        this.shapes = shapes;
        this.name = db.name();
        this.db = db;
        this.lane = lane;
        this.reads = reads;
        this.idle = idle;
        this.telemetry = telemetry;
        this.held = telemetry::held;
        this.clock = clock;
    }

    /**
     * A query; while corked, on the lane. With {@code span}, stamps when its statement ran (for a
     * profile of this very path).
     */
    List<Row> query(ReadOptions options, String sql, Object[] bound, long[] span) {
        StatementShape shape = shapes.of(sql);
        return measured(shape.firstKeyword(), () -> {
            StatementPolicy.READER.admit(name, shape, StatementPolicy.UNKNOWN_ATTACH_LIMIT);
            if (lane.corked()) {
                return onLane(c -> Statements.query(c, sql, bound, maxResultBytes(), name));
            }
            return span == null ? reads.query(options, sql, bound)
                    : reads.query(options, sql, bound, span);
        });
    }

    /** A streamed query, row by row into {@code rows}; while corked, on the lane. */
    long stream(ReadOptions options, String sql, Object[] bound, RowStream rows) {
        StatementShape shape = shapes.of(sql);
        return rows.run(() -> measured(shape.firstKeyword(), () -> {
            StatementPolicy.READER.admit(name, shape, StatementPolicy.UNKNOWN_ATTACH_LIMIT);
            return lane.corked() ? onLane(c -> Statements.stream(c, sql, bound, rows))
                    : reads.stream(options, sql, bound, rows);
        }));
    }

    /**
     * A query for the data source, with its columns' metadata; while corked, on the lane. The
     * rows beyond the first page stream ({@code paging} gets them; the read's measure ends with
     * the first page, and a stream that held its reader past {@code maxReadDuration} is warned
     * about when it ends); corked, the whole result is read on the lane. The
     * data source admitted {@code shape} as a read once, when it found it, so it is not admitted
     * again per run; {@code sql} is what runs (the shape's text, or the data source's rewrite of
     * it).
     */
    ResultData queryData(ReadOptions options, StatementShape shape, String sql, Object[] args,
            Paging paging) {
        return measured(shape.firstKeyword(), () -> {
            if (lane.corked()) {
                return onLane(c -> Statements.queryData(c, sql, args, maxResultBytes(), name));
            }
            return reads.queryPaged(options, sql, args, paging, held);
        });
    }

    <T> T read(ReadOptions options, SqlFunction<T> body) {
        return measured(null, () -> lane.corked() ? onLane(body) : reads.read(options, body));
    }

    <T> CompletableFuture<T> readAsync(ReadOptions options, SqlFunction<T> body) {
        idle.touched();
        long started = clock.nanoTime();
        if (lane.corked()) {
            // the lane brackets it, as a read
            CompletableFuture<T> future = db.submitAsync(requestOnLane(body, true));
            future.whenComplete((v, e) -> telemetry.finished(null,
                    clock.nanoTime() - started, e == null ? null : Failures.asLanes(e)));
            return future;
        }
        boolean traced = telemetry.tracing();
        Object trace = traced ? telemetry.started() : null;
        Reads.Outcome ended = failure -> ended(null, started, traced, trace, failure);
        try {
            return reads.readAsync(options, body, ended);
        } catch (RuntimeException refused) {
            ended.ended(refused);
            throw refused;
        }
    }

    /**
     * A snapshot for the data source's read-only transaction; always on a reader, admitted
     * within {@code options}' timeout.
     */
    ReadSnapshot snapshot(ReadOptions options) {
        idle.touched();
        return reads.snapshot(options);
    }

    private long maxResultBytes() {
        return db.options().maxResultBytes();
    }

    /** A read measured for the telemetry; {@code kind} is its first keyword, null for a body. */
    private <T> T measured(String kind, Supplier<T> read) {
        idle.touched();
        long started = clock.nanoTime();
        boolean traced = telemetry.tracing();
        Object trace = traced ? telemetry.started() : null;
        try {
            T value = read.get();
            ended(kind, started, traced, trace, null);
            return value;
        } catch (RuntimeException e) {
            ended(kind, started, traced, trace, e);
            throw e;
        }
    }

    /** A read ended: its telemetry, and the end of its bracket when {@code traced}. */
    private void ended(String kind, long started, boolean traced, Object trace,
            Throwable failure) {
        long nanos = clock.nanoTime() - started;
        telemetry.finished(kind, nanos, failure);
        if (traced) {
            telemetry.completed(trace, nanos, failure);
        }
    }

    /** A read while corked, on the lane; {@link #measured} brackets it. */
    private <T> T onLane(SqlFunction<T> body) {
        return db.runAndWait(requestOnLane(body, false));
    }

    /** The lane's request for a read while corked; the lane brackets it when {@code traced}. */
    private WriteRequest requestOnLane(SqlFunction<?> body, boolean traced) {
        return lane.readBody(c -> ConnectionGuard.read(name, c,
                ConnectionGuard.StopCheck.NONE, shapes).run(body, false),
                traced);
    }
}

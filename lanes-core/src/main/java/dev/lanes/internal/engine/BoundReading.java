package dev.lanes.internal.engine;

import dev.lanes.ReadOptions;
import dev.lanes.Reading;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A database's reads with per-read options ({@code Database.reading}): each form runs on the
 * database's one read path with these options instead of the defaults.
 *
 * <p>Concurrency: immutable.
 */
final class BoundReading implements Reading {
    private final LaneDatabase db;
    private final ReadOptions options;

    BoundReading(LaneDatabase db, ReadOptions options) {
        this.db = db;
        this.options = options;
    }

    @Override
    public List<Row> query(String sql, Object... args) {
        return db.query(options, sql, args);
    }

    @Override
    public long stream(String sql, Object[] args, Consumer<Row> each) {
        return db.stream(options, sql, args, each);
    }

    @Override
    public <T> T read(SqlFunction<T> body) {
        return db.read(options, body);
    }

    @Override
    public <T> CompletableFuture<T> readAsync(SqlFunction<T> body) {
        return db.readAsync(options, body);
    }

    @Override
    public String toString() {
        return "Reading[" + db + ", " + options + "]";
    }
}

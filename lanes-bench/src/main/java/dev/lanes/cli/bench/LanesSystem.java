package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import dev.lanes.spi.ClusterEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * Lanes under test: a runtime of its own with default settings and one database — a local file,
 * or a database on a cluster ({@code Lanes.openCluster}) — written with {@link
 * Database#execute}, the call an application makes for a single-statement write.
 */
final class LanesSystem implements BenchSystem {
    private final Lanes lanes;
    private final Database db;

    private LanesSystem(Lanes lanes, Database db) {
        this.lanes = lanes;
        this.db = db;
    }

    /** Lanes on a fresh local {@code file}, its options {@code base} and the bench's own. */
    static LanesSystem open(DatabaseOptions.Builder base, Path file, Synchronous synchronous,
            int writers) {
        DatabaseOptions options = options(base, writers).synchronous(synchronous).build();
        return open(lanes -> lanes.open(file, options));
    }

    /** Lanes on a fresh local {@code file} with exactly {@code options}. */
    static LanesSystem open(Path file, DatabaseOptions options) {
        return open(lanes -> lanes.open(file, options));
    }

    /** Lanes on {@code database} (fresh) of a cluster. */
    static LanesSystem openCluster(ClusterEngine engine, String database, int writers) {
        DatabaseOptions options = options(DatabaseOptions.builder(), writers).build();
        return open(lanes -> lanes.openCluster(engine, database, options));
    }

    private static DatabaseOptions.Builder options(DatabaseOptions.Builder base, int writers) {
        return base
                .busyTimeout(Duration.ofMillis(BUSY_TIMEOUT_MS))
                // each writer thread has at most one write in flight, so a queue this deep never
                // refuses one: the bench measures commits, not admission control
                .writeQueueCapacity(Math.max(DatabaseOptions.DEFAULTS.writeQueueCapacity(), writers));
    }

    private static LanesSystem open(Function<Lanes, Database> opener) {
        Lanes lanes = Lanes.builder().name("bench").build();
        try {
            Database db = opener.apply(lanes);
            db.execute(CREATE_TABLE);
            return new LanesSystem(lanes, db);
        } catch (RuntimeException e) {
            lanes.close();
            throw e;
        }
    }

    /** The database, for workloads beyond {@link #insert}. */
    Database database() {
        return db;
    }

    @Override
    public String name() {
        return "lanes";
    }

    @Override
    public void insert(String payload) {
        db.execute(INSERT, payload);
    }

    @Override
    public long countRows() {
        return db.query(COUNT_ROWS).get(0).getLong("n");
    }

    @Override
    public void close() {
        lanes.close();
    }
}

package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Lanes under test: a runtime of its own with default settings and one database, written with
 * {@link Database#execute}, the call an application makes for a single-statement write.
 */
final class LanesSystem implements BenchSystem {
    private final Lanes lanes;
    private final Database db;

    private LanesSystem(Lanes lanes, Database db) {
        this.lanes = lanes;
        this.db = db;
    }

    static LanesSystem open(Path file, Synchronous synchronous, int writers) {
        DatabaseOptions options = DatabaseOptions.builder()
                .synchronous(synchronous)
                .busyTimeout(Duration.ofMillis(BUSY_TIMEOUT_MS))
                // each writer thread has at most one write in flight, so a queue this deep never
                // refuses one: the bench measures commits, not admission control
                .writeQueueCapacity(Math.max(DatabaseOptions.DEFAULTS.writeQueueCapacity(), writers))
                .build();
        Lanes lanes = Lanes.builder().name("bench").build();
        try {
            Database db = lanes.open(file, options);
            db.execute(CREATE_TABLE);
            return new LanesSystem(lanes, db);
        } catch (RuntimeException e) {
            lanes.close();
            throw e;
        }
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

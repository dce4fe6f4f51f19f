package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.spi.ClusterEngine;
import java.time.Duration;

/**
 * Lanes on a cluster under test: a runtime of its own and one cluster database ({@code
 * Lanes.openCluster}), written with {@link Database#execute}: every writer's insert queues on the
 * one writer lane, and adjacent ones share one replicated commit.
 */
final class ClusterLanesSystem implements BenchSystem {
    private final Lanes lanes;
    private final Database db;

    private ClusterLanesSystem(Lanes lanes, Database db) {
        this.lanes = lanes;
        this.db = db;
    }

    /** Opens {@code database} (fresh) on the cluster and creates the bench table. */
    static ClusterLanesSystem open(ClusterEngine engine, String database, int writers) {
        DatabaseOptions options = DatabaseOptions.builder()
                .busyTimeout(Duration.ofMillis(BUSY_TIMEOUT_MS))
                // each writer has at most one write in flight: the queue never refuses one
                .writeQueueCapacity(Math.max(DatabaseOptions.DEFAULTS.writeQueueCapacity(), writers))
                .build();
        Lanes lanes = Lanes.builder().name("bench").build();
        try {
            Database db = lanes.openCluster(engine, database, options);
            db.execute(CREATE_TABLE);
            return new ClusterLanesSystem(lanes, db);
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

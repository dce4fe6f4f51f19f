package dev.lanes.dqlite;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.dqlite.testing.LocalCluster;
import java.time.Duration;

/**
 * A Lanes runtime on a real 3-node dqlite cluster ({@link TestCluster}), for a test class to
 * start once and close after its tests; the class is skipped when libdqlite cannot be had.
 */
final class LanesOnCluster implements AutoCloseable {
    final LocalCluster cluster;
    final DqliteCluster engine;
    final Lanes lanes;

    private LanesOnCluster(LocalCluster cluster, Lanes lanes) {
        this.cluster = cluster;
        this.engine = cluster.client();
        this.lanes = lanes;
    }

    /** Starts the cluster and a runtime named {@code name}. */
    static LanesOnCluster start(String name) {
        LocalCluster cluster = TestCluster.start(3);
        return new LanesOnCluster(cluster, Lanes.builder().name(name).maxThreads(8).build());
    }

    /** Opens the cluster database {@code name}, waiting up to 10 s for the leader's lock. */
    Database open(String name, DatabaseOptions.Builder options) {
        return lanes.openCluster(engine, name, options.busyTimeout(Duration.ofSeconds(10))
                .build());
    }

    @Override
    public void close() {
        try {
            lanes.close();
        } finally {
            cluster.close();
        }
    }
}

package dev.lanes.spring;

import dev.lanes.fleet.ObjectStore;
import dev.lanes.fleet.testing.LocalEngines;
import dev.lanes.fleet.testing.LocalEtcd;
import dev.lanes.fleet.testing.LocalObjectStore;
import dev.lanes.fleet.testing.Tools;
import java.nio.file.Path;
import java.util.List;

/**
 * The real engines a starter-built fleet node runs on in a test: one tuned etcd member, s3proxy
 * and Litestream, found or installed as lanes-fleet's tests do, and the {@code lanes.fleet.*}
 * properties of a node on them.
 */
final class FleetEngines implements AutoCloseable {
    private final LocalEngines engines;
    final LocalEtcd etcd;
    final LocalObjectStore store;
    final Path litestream;

    private FleetEngines(LocalEngines engines) {
        this.engines = engines;
        this.etcd = engines.etcd();
        this.store = engines.store();
        this.litestream = engines.litestream();
    }

    /**
     * Starts the engines under {@code dir}.
     *
     * @throws Tools.Unavailable when one cannot be had here; its message says what to install
     */
    static FleetEngines start(Path dir) throws Tools.Unavailable {
        return new FleetEngines(LocalEngines.start(dir, 1, LocalEtcd.Timing.TUNED));
    }

    /** The properties of node {@code node}, advertised at {@code address}, of fleet {@code name}. */
    List<String> nodeProperties(String node, String address, String name, Path data) {
        ObjectStore s3 = store.objectStore();
        return List.of("lanes.fleet.enabled=true", "lanes.fleet.node-id=" + node,
                "lanes.fleet.address=" + address,
                "lanes.fleet.etcd=" + String.join(",", etcd.endpoints()),
                "lanes.fleet.name=" + name, "lanes.fleet.lease-ttl=5s",
                "lanes.fleet.data-directory=" + data,
                "lanes.fleet.litestream=" + litestream,
                "lanes.fleet.litestream-processes=1",
                "lanes.fleet.replication-interval=100ms",
                "lanes.fleet.object-store.endpoint=" + s3.endpoint(),
                "lanes.fleet.object-store.bucket=" + s3.bucket(),
                "lanes.fleet.object-store.region=" + s3.region(),
                "lanes.fleet.object-store.access-key-id=" + s3.accessKeyId(),
                "lanes.fleet.object-store.secret-access-key=" + s3.secretAccessKey(),
                "lanes.fleet.object-store.prefix=" + name + "/");
    }

    @Override
    public void close() {
        engines.close();
    }
}

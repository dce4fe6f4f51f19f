package dev.lanes.fleet;

import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanes.fleet.testing.LocalEngines;
import dev.lanes.fleet.testing.LocalEtcd;
import dev.lanes.fleet.testing.LocalObjectStore;
import dev.lanes.fleet.testing.Tools;
import java.nio.file.Path;

/**
 * The real engines a fleet test runs on, on 127.0.0.1: a 3-member etcd cluster, s3proxy and
 * Litestream; the calling test is skipped, with what to install, when one cannot be had.
 * {@link #close()} stops every process it started.
 */
final class Engines implements AutoCloseable {
    private final LocalEngines engines;
    final LocalEtcd etcd;
    final LocalObjectStore store;
    final Path litestream;

    private Engines(LocalEngines engines) {
        this.engines = engines;
        this.etcd = engines.etcd();
        this.store = engines.store();
        this.litestream = engines.litestream();
    }

    static Engines start(Path dir, LocalEtcd.Timing timing) {
        try {
            return new Engines(LocalEngines.start(dir, 3, timing));
        } catch (Tools.Unavailable e) {
            return abort("fleet tests skipped: " + e.getMessage());
        }
    }

    /**
     * A new directory for one run under {@code target/<name>/}, so that the nodes' and engines'
     * logs outlive a failed run.
     */
    static Path runDirectory(String name) throws java.io.IOException {
        return java.nio.file.Files.createTempDirectory(java.nio.file.Files.createDirectories(
                Path.of("target", name).toAbsolutePath()), "run-");
    }

    /**
     * A node builder wired to these engines, on a 5 s lease: a loaded machine may stall a node
     * for a second or two, which must not cost it its lease in a test that does not mean it to.
     */
    Fleet.Builder node(String id, Path dataDir) {
        return Fleet.builder().nodeId(id).address("node:" + id).etcd(etcd.endpoints())
                .leaseTtl(java.time.Duration.ofSeconds(5))
                .dataDirectory(dataDir).objectStore(store.objectStore()).litestream(litestream)
                .replicationInterval(java.time.Duration.ofMillis(100))
                .litestreamProcesses(1);
    }

    @Override
    public void close() {
        engines.close();
    }
}

package dev.lanes.dqlite;

import static org.junit.jupiter.api.Assumptions.abort;

import dev.lanes.dqlite.internal.client.ClientConfig;
import dev.lanes.dqlite.internal.client.Connection;
import dev.lanes.dqlite.internal.client.WireEvents;
import dev.lanes.dqlite.testing.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The tests' way to a real dqlite cluster: {@link LocalCluster} under {@code
 * target/dqlite-test/}, the calling test skipped (with what to install) when libdqlite cannot be
 * had, and a raw connection to one node for talking to a follower. Stateless.
 */
final class TestCluster {
    private static final Path WORK = Path.of("target", "dqlite-test").toAbsolutePath();

    private TestCluster() {}

    /** Starts a cluster of {@code voters} voting nodes; node 1 leads it when this returns. */
    static LocalCluster start(int voters) {
        try {
            return LocalCluster.start(voters, WORK);
        } catch (LocalCluster.Unavailable e) {
            return abort("dqlite cluster tests skipped: " + e.getMessage());
        }
    }

    /** A connection to one node, without discovery (to talk to a follower), 2 s per request. */
    static Connection rawConnection(String address) {
        ClientConfig config = new ClientConfig(Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofSeconds(2), Duration.ofMillis(10), Duration.ofMillis(100), 1, 1 << 20,
                WireEvents.NONE);
        Connection connection = Connection.open(address, config);
        connection.setRequestTimeout(config.requestTimeout());
        return connection;
    }
}

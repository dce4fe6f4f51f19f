package dev.lanes.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.fleet.testing.ChaosReport;
import dev.lanes.fleet.testing.FleetChaos;
import dev.lanes.fleet.testing.LocalEtcd;
import dev.lanes.fleet.testing.LocalFleet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fleet chaos scenario, short: 3 node processes, a few dozen tenants, REPLICATED writes
 * through any node while a node is killed, a node is paused past its lease and resumed, etcd's
 * leader is killed (alone, then with a node), a node is added and every node is restarted in
 * turn. Afterwards every acknowledged write is present exactly once, no refused write is, the
 * fencing tokens never go down in commit order, every failed node's tenants were served again,
 * and hot tenants kept being served across planned moves.
 */
@Tag("slow")
@Tag("chaos")
@Timeout(value = 1500, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FleetChaosTest {
    @Test
    void everyAcknowledgedReplicatedWriteSurvivesKillsPausesAndMoves() throws Exception {
        // under target/, so that the nodes' and engines' logs outlive a failed run
        Path dir = Files.createTempDirectory(Files.createDirectories(
                Path.of("target", "fleet-chaos").toAbsolutePath()), "run-");
        try (Engines engines = Engines.start(dir, LocalEtcd.Timing.TUNED)) {
            // a 5 s lease: a node of a loaded 2-core machine may stall for a second or two,
            // which must not cost it its lease while it is not the one being disrupted
            LocalFleet.Settings settings = new LocalFleet.Settings(Durability.REPLICATED, 5, 100,
                    8, "160m");
            FleetChaos.Plan plan = new FleetChaos.Plan(3, 24, 6, 4, Duration.ofSeconds(3),
                    Duration.ofSeconds(3));
            ChaosReport report = FleetChaos.run(dir.resolve("chaos"), engines.etcd,
                    engines.store, engines.litestream, settings, plan,
                    line -> System.err.println("chaos: " + line));
            System.err.println(report.summary());

            assertThat(report.violations()).as("guarantees broken").isEmpty();
            assertThat(report.unserved().values()).as("tenants never served again")
                    .allMatch(n -> n == 0);
            assertThat(report.failovers()).as("failover events measured").hasSize(3);
            // planned moves serve on: a hot tenant's writes were acknowledged on both sides of
            // a move. How many writes failed meanwhile is reported, not asserted: on a loaded
            // machine a REPLICATED write's upload or a restore can outlast the nodes' bounds,
            // and such a write honestly ends UNKNOWN or NOT_STARTED (the verifier checks both)
            assertThat(report.movePauses()).as("hot-tenant moves seen").isNotEmpty();
            assertThat(report.localLosses()).isZero();
            assertThat(report.acknowledged()).as("acknowledged writes").isGreaterThan(100);
        }
    }
}

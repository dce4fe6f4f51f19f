package dev.lanes.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.fleet.testing.ChaosReport;
import dev.lanes.fleet.testing.FleetChaos;
import dev.lanes.fleet.testing.LocalEtcd;
import dev.lanes.fleet.testing.LocalFleet;
import dev.lanes.fleet.testing.LocalObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Node processes on real engines, disrupted. One failover, measured and not timed: the busiest
 * of 3 nodes killed with {@code kill -9}, every tenant it served served again elsewhere, and the
 * run prints per tenant when its lease expiry was seen, when it was claimed, restored, opened,
 * recorded as the replica and served its first write ({@code FailoverTimeline}); the same with
 * etcd's leader killed together with the node.
 *
 * <p>The fleet chaos scenario, short: 3 node processes, a few dozen tenants, REPLICATED writes
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
    /** {@link FleetChaos#run} or {@link FleetChaos#failover}. */
    private interface Scenario {
        ChaosReport run(Path dir, LocalEtcd etcd, LocalObjectStore store, Path litestream,
                LocalFleet.Settings settings, FleetChaos.Plan plan, Consumer<String> progress)
                throws InterruptedException;
    }

    /** Runs {@code scenario} on engines of its own, in a directory that outlives the run. */
    private static ChaosReport run(String name, Scenario scenario, LocalFleet.Settings settings,
            FleetChaos.Plan plan) throws Exception {
        Path dir = Engines.runDirectory("fleet-" + name);
        try (Engines e = Engines.start(dir, LocalEtcd.Timing.TUNED)) {
            ChaosReport report = scenario.run(dir.resolve(name), e.etcd, e.store, e.litestream,
                    settings, plan, line -> System.err.println(name + ": " + line));
            System.err.println(report.summary());
            return report;
        }
    }

    /**
     * One failover of {@code scenario} on the fleet's default 2 s lease (nothing else is
     * disrupted): every tenant of the killed node is served again, from the replica its
     * acknowledged REPLICATED write reached, and the timeline names every phase.
     */
    private static void failsOver(String name, Scenario scenario, String event) throws Exception {
        ChaosReport report = run(name, scenario,
                new LocalFleet.Settings(Durability.REPLICATED, 2, 100, 2, "160m"),
                new FleetChaos.Plan(3, 9, 4, 0, Duration.ofSeconds(1), Duration.ofSeconds(3)));
        assertThat(report.unserved()).containsEntry(event, 0);
        assertThat(report.failovers().get(event)).as("tenants of the killed node").isNotEmpty();
        assertThat(report.timelines().get(event)).as("the timeline names the phases")
                .contains("from epoch", "lease expiry seen", "restoring", "first write served");
    }

    @Test
    void aKilledNodesTenantsAreServedAgainAndEachPhaseIsLogged() throws Exception {
        failsOver("failover", FleetChaos::failover, "kill -9 of a node");
    }

    @Test
    void aNodeKilledWithEtcdsLeaderHasItsTenantsServedAgain() throws Exception {
        failsOver("failover-leader", FleetChaos::failoverWithEtcdLeader,
                "kill -9 of a node and etcd's leader");
    }

    @Test
    void everyAcknowledgedReplicatedWriteSurvivesKillsPausesAndMoves() throws Exception {
        // a 5 s lease: a node of a loaded 2-core machine may stall for a second or two, which
        // must not cost it its lease while it is not the one being disrupted
        ChaosReport report = run("chaos", FleetChaos::run,
                new LocalFleet.Settings(Durability.REPLICATED, 5, 100, 8, "160m"),
                new FleetChaos.Plan(3, 24, 6, 4, Duration.ofSeconds(3), Duration.ofSeconds(3)));
        assertThat(report.violations()).as("guarantees broken").isEmpty();
        assertThat(report.unserved().values()).as("tenants never served again")
                .allMatch(n -> n == 0);
        assertThat(report.failovers()).as("failover events measured").hasSize(3);
        // planned moves serve on: a hot tenant's writes were acknowledged on both sides of a
        // move. How many writes failed meanwhile is reported, not asserted: on a loaded machine
        // a REPLICATED write's upload or a restore can outlast the nodes' bounds, and such a
        // write honestly ends UNKNOWN or NOT_STARTED (the verifier checks both)
        assertThat(report.movePauses()).as("hot-tenant moves seen").isNotEmpty();
        assertThat(report.localLosses()).isZero();
        assertThat(report.acknowledged()).as("acknowledged writes").isGreaterThan(100);
    }
}

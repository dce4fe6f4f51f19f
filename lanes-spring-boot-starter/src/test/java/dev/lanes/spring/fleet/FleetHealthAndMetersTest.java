package dev.lanes.spring.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.fleet.OwnershipChange;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code lanes-fleet} health of a stub node (UP with its lease held or expiring, DOWN once
 * the lease is lost) and the fleet's meters: the counters a {@code FleetListener} feeds and the
 * gauges read from the node's status.
 */
class FleetHealthAndMetersTest {
    private final StubFleetNode fleet = new StubFleetNode();

    @Test
    void healthIsUpWithTheLeaseTheTenantsAndTheCounts() {
        Health health = new FleetHealthIndicator(fleet).health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("node", "a")
                .containsEntry("address", "http://a:8080").containsEntry("tenants", 3)
                .containsEntry("members", 2).containsEntry("replicationLagBytes", 4096L)
                .containsEntry("ownershipChanges", 5L).containsEntry("restores", 2L)
                .containsEntry("fencingRefusals", 1L);
        assertThat(lease(health)).containsEntry("id", 77L)
                .containsEntry("state", "held").containsEntry("remaining", "PT1.5S")
                .containsEntry("ttl", "PT2S");
    }

    @Test
    void aLeaseWithLessThanAQuarterOfItsTtlLeftIsExpiringButUp() {
        fleet.status = StubFleetNode.status(Duration.ofMillis(400), 3);
        Health health = new FleetHealthIndicator(fleet).health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(lease(health))
                .containsEntry("state", "expiring");
    }

    @Test
    void healthIsDownOnceTheLeaseIsLost() {
        fleet.status = StubFleetNode.status(Duration.ZERO, 0);
        Health health = new FleetHealthIndicator(fleet).health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(lease(health)).containsEntry("state", "lost");
        assertThat(health.getDetails()).containsEntry("tenants", 0);
    }

    @Test
    void theListenerCountsChangesRestoresAndRefusals() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FleetMeters meters = new FleetMeters(registry);
        assertThat(registry.get(FleetMeters.OWNERSHIP_CHANGES).tag("change", "lost").counter()
                .count()).as("registered at zero").isZero();
        meters.ownershipChanged("t1", OwnershipChange.ACQUIRED);
        meters.ownershipChanged("t2", OwnershipChange.ACQUIRED);
        meters.ownershipChanged("t1", OwnershipChange.RELEASED);
        meters.ownershipChanged("t2", OwnershipChange.LOST);
        meters.restored("t1", Duration.ofMillis(180));
        meters.commitRefused("t2");
        meters.commitRefused("t2");

        assertThat(registry.get(FleetMeters.OWNERSHIP_CHANGES).tag("change", "acquired")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get(FleetMeters.OWNERSHIP_CHANGES).tag("change", "released")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(FleetMeters.OWNERSHIP_CHANGES).tag("change", "lost")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(FleetMeters.RESTORES).timer().count()).isEqualTo(1);
        assertThat(registry.get(FleetMeters.RESTORES).timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(180);
        assertThat(registry.get(FleetMeters.FENCING_REFUSALS).counter().count()).isEqualTo(2);
        assertThat(registry.find(FleetMeters.OWNERSHIP_CHANGES).meters())
                .allSatisfy(m -> assertThat(m.getId().getTag("tenant")).isNull());
    }

    @Test
    void theGaugesFollowTheNodesStatus() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FleetMeters.bindStatus(registry, fleet);
        assertThat(registry.get(FleetMeters.TENANTS).gauge().value()).isEqualTo(3);
        assertThat(registry.get(FleetMeters.MEMBERS).gauge().value()).isEqualTo(2);
        assertThat(registry.get(FleetMeters.REPLICATION_LAG).gauge().value()).isEqualTo(4096);
        assertThat(registry.get(FleetMeters.LEASE_REMAINING).timeGauge()
                .value(TimeUnit.MILLISECONDS)).isEqualTo(1500);

        fleet.status = StubFleetNode.status(Duration.ZERO, 9);
        assertThat(registry.get(FleetMeters.TENANTS).gauge().value()).isEqualTo(9);
        assertThat(registry.get(FleetMeters.LEASE_REMAINING).timeGauge()
                .value(TimeUnit.MILLISECONDS)).isZero();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> lease(Health health) {
        return (Map<String, Object>) health.getDetails().get("lease");
    }
}

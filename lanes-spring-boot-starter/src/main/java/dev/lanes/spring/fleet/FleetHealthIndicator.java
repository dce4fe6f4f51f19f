package dev.lanes.spring.fleet;

import dev.lanes.fleet.FleetStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code lanes-fleet} health of this node ({@code management.health.lanes-fleet.enabled}):
 *
 * <ul>
 *   <li>{@code DOWN} when the node's lease is lost: it may have expired, so every commit of its
 *       tenants is refused until the node registers again under a new lease;
 *   <li>else {@code UP}; the lease is {@code expiring} while less than a quarter of its TTL is
 *       surely left (keep-alives are sent every quarter of the TTL, so at least two went
 *       unanswered), else {@code held}.
 * </ul>
 *
 * <p>Details: the node's id and address, the lease ({@code id}, {@code state}, {@code
 * remaining} and {@code ttl} in ISO-8601), the tenants it serves, the live members, the WAL bytes
 * of its tenants not yet in object storage, and its counts of ownership changes, restores and
 * refused commits. A health request reads {@link FleetNode#status()} only (no etcd call).
 */
public final class FleetHealthIndicator implements HealthIndicator {
    private final FleetNode fleet;

    /** The indicator of {@code fleet}'s node. */
    public FleetHealthIndicator(FleetNode fleet) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
    }

    @Override
    public Health health() {
        FleetStatus status = fleet.status();
        Duration ttl = fleet.leaseTtl();
        Duration remaining = status.leaseRemaining();
        String state = leaseState(remaining, ttl);
        Map<String, Object> lease = new LinkedHashMap<>();
        lease.put("id", status.lease());
        lease.put("state", state);
        lease.put("remaining", remaining.toString());
        lease.put("ttl", ttl.toString());
        Health.Builder health = "lost".equals(state) ? Health.down() : Health.up();
        return health.withDetail("node", status.node().id())
                .withDetail("address", status.node().address())
                .withDetail("lease", lease)
                .withDetail("tenants", status.tenants())
                .withDetail("members", status.members())
                .withDetail("replicationLagBytes", status.replicationLagBytes())
                .withDetail("ownershipChanges", status.ownershipChanges())
                .withDetail("restores", status.restores())
                .withDetail("fencingRefusals", status.fencingRefusals())
                .build();
    }

    /** {@code lost}, {@code expiring} or {@code held}; see the class comment. */
    static String leaseState(Duration remaining, Duration ttl) {
        if (remaining.isZero() || remaining.isNegative()) {
            return "lost";
        }
        return remaining.compareTo(ttl.dividedBy(4)) < 0 ? "expiring" : "held";
    }
}

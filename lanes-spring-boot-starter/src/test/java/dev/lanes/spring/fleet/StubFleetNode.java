package dev.lanes.spring.fleet;

import dev.lanes.fleet.FleetStatus;
import dev.lanes.fleet.Member;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A node whose owners and status a test sets: node "a" at {@code http://a:8080}. */
final class StubFleetNode implements FleetNode {
    static final Member SELF = new Member("a", "http://a:8080");

    final Map<String, Member> owners = new ConcurrentHashMap<>();
    volatile FleetStatus status = status(Duration.ofMillis(1500), 3);
    volatile Duration ttl = Duration.ofSeconds(2);

    static FleetStatus status(Duration leaseRemaining, int tenants) {
        return new FleetStatus(SELF, 77, leaseRemaining, tenants, 2, 4096, 5, 2, 1);
    }

    @Override
    public Member node() {
        return SELF;
    }

    @Override
    public Optional<Member> ownerOf(String tenant) {
        return Optional.ofNullable(owners.get(tenant));
    }

    @Override
    public FleetStatus status() {
        return status;
    }

    @Override
    public Duration leaseTtl() {
        return ttl;
    }
}

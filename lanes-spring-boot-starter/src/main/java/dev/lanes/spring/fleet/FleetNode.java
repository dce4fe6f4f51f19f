package dev.lanes.spring.fleet;

import dev.lanes.fleet.Fleet;
import dev.lanes.fleet.FleetStatus;
import dev.lanes.fleet.Member;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the starter's request filter, health indicator and meters read of this node of the fleet:
 * the part of {@link Fleet} they need, so that they can run on another implementation (a stub in
 * a test, a node that asks an owner service of its own). {@link #of(Fleet)} is the fleet itself.
 *
 * <p>Implementations must be thread-safe: every method is called from request threads.
 */
public interface FleetNode {

    /** This node. */
    Member node();

    /** The node that owns {@code tenant}, when one does. */
    Optional<Member> ownerOf(String tenant);

    /** A point-in-time view of this node. */
    FleetStatus status();

    /** The TTL this node asks for its lease. */
    Duration leaseTtl();

    /** The node {@code fleet} is. */
    static FleetNode of(Fleet fleet) {
        Objects.requireNonNull(fleet, "fleet");
        return new FleetNode() {
            @Override
            public Member node() {
                return fleet.node();
            }

            @Override
            public Optional<Member> ownerOf(String tenant) {
                return fleet.ownerOf(tenant);
            }

            @Override
            public FleetStatus status() {
                return fleet.status();
            }

            @Override
            public Duration leaseTtl() {
                return fleet.leaseTtl();
            }

            @Override
            public String toString() {
                return "FleetNode[" + fleet.node().id() + "]";
            }
        };
    }
}

package dev.lanes.fleet;

import java.time.Duration;

/**
 * Told what happens to this node's tenants, for meters and logs: pass it to {@link
 * Fleet.Builder#listener(FleetListener)}. Every method does nothing by default.
 *
 * <p>Calls come on the thread that made the change: a request's that acquired a tenant, the
 * fleet's workers, its etcd watch and keep-alive threads, a tenant's writer for {@link
 * #commitRefused}. They must return quickly and never block. One that throws is
 * logged and does not disturb the fleet. Tenant names are unbounded in number: do not tag meters
 * with them.
 */
public interface FleetListener {

    /** {@code tenant} was acquired, released or lost by this node. */
    default void ownershipChanged(String tenant, OwnershipChange change) {}

    /**
     * {@code tenant} was restored from its replica in object storage before this node served
     * it (not called when the node's own copy was current), in {@code took}.
     */
    default void restored(String tenant, Duration took) {}

    /**
     * A commit of {@code tenant} was refused (rolled back, nothing written) because this node's
     * lease may have expired or the tenant is no longer this node's.
     */
    default void commitRefused(String tenant) {}
}

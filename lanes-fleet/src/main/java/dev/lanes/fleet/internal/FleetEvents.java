package dev.lanes.fleet.internal;

import dev.lanes.fleet.FleetListener;
import dev.lanes.fleet.OwnershipChange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a node's tenants: counted here (for {@code FleetStatus}) and told to the
 * application's {@link FleetListener}s. A listener that throws is logged and skipped.
 *
 * <p>Thread-safety: the counters are atomic and the listener list is immutable.
 */
public final class FleetEvents {
    private static final Logger log = LoggerFactory.getLogger(FleetEvents.class);

    private final List<FleetListener> listeners;
    private final AtomicLong changes = new AtomicLong();
    private final AtomicLong restores = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    public FleetEvents(List<FleetListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    /** Counts only. */
    public static FleetEvents counting() {
        return new FleetEvents(List.of());
    }

    void ownershipChanged(String tenant, OwnershipChange change) {
        changes.incrementAndGet();
        tell(l -> l.ownershipChanged(tenant, change));
    }

    void restored(String tenant, long nanos) {
        restores.incrementAndGet();
        if (!listeners.isEmpty()) {
            Duration took = Duration.ofNanos(nanos);
            tell(l -> l.restored(tenant, took));
        }
    }

    void commitRefused(String tenant) {
        refusals.incrementAndGet();
        tell(l -> l.commitRefused(tenant));
    }

    /** Tenants acquired, released or lost so far. */
    public long ownershipChanges() {
        return changes.get();
    }

    /** Restores from object storage so far. */
    public long restores() {
        return restores.get();
    }

    /** Commits refused by a tenant fence so far. */
    public long commitRefusals() {
        return refusals.get();
    }

    private void tell(Consumer<FleetListener> call) {
        for (FleetListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                log.warn("fleet listener {} failed: {}", l, e.toString());
            }
        }
    }
}

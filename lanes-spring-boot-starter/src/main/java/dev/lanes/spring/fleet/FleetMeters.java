package dev.lanes.spring.fleet;

import dev.lanes.fleet.FleetListener;
import dev.lanes.fleet.OwnershipChange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The fleet's meters in a Micrometer registry. As a {@link FleetListener} (pass it to {@code
 * Fleet.Builder.listener}; the starter does for the {@code Fleet} it makes) it counts:
 *
 * <ul>
 *   <li>{@value #OWNERSHIP_CHANGES}, tag {@code change}: {@code acquired}, {@code released},
 *       {@code lost};
 *   <li>{@value #RESTORES}: a timer of the restores from object storage;
 *   <li>{@value #FENCING_REFUSALS}: commits the tenant fence refused.
 * </ul>
 *
 * <p>{@link #bindStatus(MeterRegistry, FleetNode)} adds gauges read from {@link
 * FleetNode#status()}: {@value #TENANTS}, {@value #MEMBERS}, {@value #REPLICATION_LAG} (bytes of
 * WAL not yet in object storage) and {@value #LEASE_REMAINING}. Each process is one node, so no meter is tagged by
 * node or by tenant; the registry's common tags tell the processes apart.
 *
 * <p>Thread-safety: the meters are Micrometer's, safe from any thread.
 */
public final class FleetMeters implements FleetListener {
    /** Tenants acquired, released and lost by this node. */
    public static final String OWNERSHIP_CHANGES = "lanes.fleet.ownership.changes";
    /** Restores of tenants from object storage. */
    public static final String RESTORES = "lanes.fleet.restores";
    /** Commits refused by a tenant fence. */
    public static final String FENCING_REFUSALS = "lanes.fleet.fencing.refusals";
    /** Tenants this node serves. */
    public static final String TENANTS = "lanes.fleet.tenants";
    /** Live members of the fleet. */
    public static final String MEMBERS = "lanes.fleet.members";
    /** WAL bytes of this node's tenants not yet in object storage. */
    public static final String REPLICATION_LAG = "lanes.fleet.replication.lag";
    /** How long this node's lease is surely held. */
    public static final String LEASE_REMAINING = "lanes.fleet.lease.remaining";

    private final Map<OwnershipChange, Counter> changes = new EnumMap<>(OwnershipChange.class);
    private final Timer restores;
    private final Counter refusals;

    /** The counters in {@code registry}, registered now (at zero). */
    public FleetMeters(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        for (OwnershipChange change : OwnershipChange.values()) {
            changes.put(change, Counter.builder(OWNERSHIP_CHANGES)
                    .description("Tenants acquired, released or lost by this node")
                    .tag("change", change.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        restores = Timer.builder(RESTORES)
                .description("Restores of tenants from object storage before serving")
                .register(registry);
        refusals = Counter.builder(FENCING_REFUSALS)
                .description("Commits refused because the lease may have expired or the tenant"
                        + " moved")
                .register(registry);
    }

    /** Adds the gauges of {@code fleet}'s status to {@code registry} (see the class comment). */
    public static void bindStatus(MeterRegistry registry, FleetNode fleet) {
        Objects.requireNonNull(fleet, "fleet");
        Gauge.builder(TENANTS, fleet, f -> f.status().tenants())
                .description("Tenants this node serves").strongReference(true).register(registry);
        Gauge.builder(MEMBERS, fleet, f -> f.status().members())
                .description("Live members of the fleet").strongReference(true).register(registry);
        Gauge.builder(REPLICATION_LAG, fleet, f -> f.status().replicationLagBytes())
                .description("WAL bytes of this node's tenants not yet in object storage")
                .baseUnit("bytes").strongReference(true).register(registry);
        TimeGauge.builder(LEASE_REMAINING, fleet, TimeUnit.NANOSECONDS,
                        f -> f.status().leaseRemaining().toNanos())
                .description("How long this node's lease is surely held; 0 once it may have"
                        + " expired")
                .strongReference(true).register(registry);
    }

    @Override
    public void ownershipChanged(String tenant, OwnershipChange change) {
        changes.get(change).increment();
    }

    @Override
    public void restored(String tenant, Duration took) {
        restores.record(took);
    }

    @Override
    public void commitRefused(String tenant) {
        refusals.increment();
    }
}

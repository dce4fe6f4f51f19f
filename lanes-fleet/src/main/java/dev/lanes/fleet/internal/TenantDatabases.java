package dev.lanes.fleet.internal;

import dev.lanes.Database;
import dev.lanes.fleet.Durability;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * What {@code Fleet.database} hands out: the tenant's local database at {@code LOCAL}
 * durability, and the same behind {@link ReplicatedDatabase} at {@code REPLICATED}.
 *
 * <p>Thread-safety: immutable.
 */
public final class TenantDatabases {
    private final FleetRuntime runtime;
    private final Durability durability;
    private final Duration replicatedTimeout;
    private final Executor async = ForkJoinPool.commonPool();

    public TenantDatabases(FleetRuntime runtime, Durability durability,
            Duration replicatedTimeout) {
        this.runtime = runtime;
        this.durability = durability;
        this.replicatedTimeout = replicatedTimeout;
    }

    public Durability durability() {
        return durability;
    }

    public Database database(String tenant) {
        TenantSlot slot = runtime.slotFor(tenant);
        return durability == Durability.LOCAL ? slot.db()
                : ReplicatedDatabase.of(runtime.confirmation(), slot, replicatedTimeout, async);
    }
}

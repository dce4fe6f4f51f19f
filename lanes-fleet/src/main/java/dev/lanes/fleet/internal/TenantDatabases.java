package dev.lanes.fleet.internal;

import dev.lanes.Database;
import dev.lanes.fleet.Durability;

/**
 * What {@code Fleet.database} hands out: the tenant's local database, whose commit fence ({@link
 * TenantFence}) makes each write wait for its replication at {@code REPLICATED}.
 *
 * <p>Thread-safety: immutable.
 */
public final class TenantDatabases {
    private final FleetRuntime runtime;
    private final Durability durability;

    public TenantDatabases(FleetRuntime runtime, Durability durability) {
        this.runtime = runtime;
        this.durability = durability;
    }

    public Durability durability() {
        return durability;
    }

    public Database database(String tenant) {
        return runtime.slotFor(tenant).db();
    }
}

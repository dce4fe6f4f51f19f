package dev.lanes.fleet.internal;

import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.fleet.Durability;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What a node of a fleet runs with, checked by {@code Fleet.Builder}.
 *
 * @param nodeId this node's id
 * @param dataDirectory where its local copies live
 * @param lanes the runtime the tenants' databases open in
 * @param options the tenants' database options (the fleet adds its fence and {@code EXTERNAL}
 *     checkpoints)
 * @param durability when writes are acknowledged
 * @param replicatedTimeout how long a {@code REPLICATED} write waits for its replication
 * @param acquireTimeout how long a request waits for a tenant being acquired
 * @param moveHold how long a request waits for a tenant being moved away
 * @param autoRebalance whether a node that joins gets its tenants by planned moves
 * @param workers threads that acquire, restore and move tenants in parallel
 */
public record FleetSettings(String nodeId, Path dataDirectory, Lanes lanes,
        DatabaseOptions options, Durability durability, Duration replicatedTimeout,
        Duration acquireTimeout,
        Duration moveHold, boolean autoRebalance, int workers) {}

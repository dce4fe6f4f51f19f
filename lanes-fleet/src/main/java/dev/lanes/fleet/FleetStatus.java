package dev.lanes.fleet;

import java.time.Duration;

/**
 * A point-in-time view of one node of a fleet, for health checks and meters.
 *
 * @param node this node
 * @param lease its etcd lease id
 * @param leaseRemaining how long its lease is surely held from now (zero once it may have
 *     expired: commits are then refused)
 * @param tenants tenants this node owns and serves
 * @param members live nodes of the fleet, this one included
 * @param replicationLagBytes WAL bytes of this node's tenants not yet in object storage
 * @param ownershipChanges tenants this node took or gave up since it started
 * @param restores tenants restored from object storage before serving
 * @param fencingRefusals commits refused because the lease may have expired or the tenant moved
 */
public record FleetStatus(Member node, long lease, Duration leaseRemaining, int tenants,
        int members, long replicationLagBytes, long ownershipChanges, long restores,
        long fencingRefusals) {}

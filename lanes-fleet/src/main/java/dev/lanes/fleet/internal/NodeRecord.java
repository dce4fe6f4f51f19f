package dev.lanes.fleet.internal;

/**
 * A live node of the fleet: its registration key, attached to its lease, so it disappears with
 * the lease.
 *
 * @param id the node's id
 * @param address where its requests are served (whatever the application advertises)
 * @param lease the node's etcd lease
 */
public record NodeRecord(String id, String address, long lease) {}

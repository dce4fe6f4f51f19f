package dev.lanes.fleet.internal;

/**
 * Who owns a tenant: the node named in the tenant's owner key, and the key's modification
 * revision, which is the owner's fencing token (it only grows: every claim and hand-over
 * writes the key anew).
 *
 * @param tenant the tenant
 * @param node the owning node's id
 * @param token the owner key's modification revision
 * @param lease the etcd lease the key is attached to
 */
public record OwnerRecord(String tenant, String node, long token, long lease) {}

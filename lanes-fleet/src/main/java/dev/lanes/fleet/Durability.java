package dev.lanes.fleet;

/**
 * When a fleet tenant's write is acknowledged.
 */
public enum Durability {
    /**
     * When it is durable on the owner's disk, as on any Lanes database. Litestream ships it to
     * object storage shortly after; a node lost for good loses what was not shipped yet (the
     * recovery point window, measured in {@code docs/fleet.md}). A failover to another node
     * serves the replica's state, so those writes are missing there.
     */
    LOCAL,
    /**
     * Only once its WAL frames are in object storage as well: the caller waits, after the
     * commit, until the tenant's replica position has passed it. Every write waits so, through
     * any entry point (statements, batches, scripts, bodies, transactions' commits, asynchronous
     * writes, and the data source's writes and commits). A failover loses no
     * acknowledged write. A write whose replication could not be confirmed while this node still
     * surely owned the tenant ends {@code UNKNOWN}: it committed locally, and may or may not be
     * in the state the next owner serves.
     */
    REPLICATED
}

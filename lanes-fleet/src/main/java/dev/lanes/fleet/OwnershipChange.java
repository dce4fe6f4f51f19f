package dev.lanes.fleet;

/** What happened to a tenant's ownership on this node, as a {@link FleetListener} hears it. */
public enum OwnershipChange {
    /** This node took the tenant (claimed or handed to it) and serves it now. */
    ACQUIRED,
    /**
     * This node gave the tenant up cleanly: handed over to another node by a planned move or a
     * rebalance, or released on leaving, after its final replication.
     */
    RELEASED,
    /**
     * This node stopped serving the tenant without handing it over: its lease expired, its owner
     * key went or names another node, its database died, or a move could not end cleanly. Its
     * commits are refused from then on.
     */
    LOST
}

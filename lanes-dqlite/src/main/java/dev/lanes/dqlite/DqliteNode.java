package dev.lanes.dqlite;

import java.util.Objects;

/**
 * One member of a dqlite cluster, as the leader's Raft configuration lists it.
 *
 * @param id the node's Raft id (positive)
 * @param address the {@code host:port} the node serves on and names itself by
 * @param role the node's role
 */
public record DqliteNode(long id, String address, DqliteRole role) {
    public DqliteNode {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(role, "role");
    }
}

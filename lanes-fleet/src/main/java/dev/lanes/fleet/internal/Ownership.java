package dev.lanes.fleet.internal;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Who owns which tenant, decided by a consensus store (etcd in {@link EtcdOwnership}): one lease
 * per node, kept alive; a tenant's owner key written only if absent, attached to that lease; its
 * revision the fencing token. Every node watches the whole map.
 *
 * <p>Implementations are thread-safe; listeners are called on one thread, in the store's order.
 */
public interface Ownership extends AutoCloseable {
    /** What a node learns from the watched map. Called on one thread, in revision order. */
    interface Listener {
        /** A tenant's owner key changed: written ({@code after} set) or deleted ({@code null}). */
        void ownerChanged(String tenant, OwnerRecord before, OwnerRecord after);

        /** The set of live nodes changed. */
        void nodesChanged(Map<String, NodeRecord> live);

        /** This node's lease is gone; every tenant it owned is no longer its own. */
        void leaseLost();
    }

    /**
     * The outcome of a claim: {@code won} (under {@code lease}), else who owns the tenant now.
     */
    record Claim(boolean won, OwnerRecord owner, ReplicaRecord replica, LeaseHandle lease) {}

    /** Grants the lease, registers the node, loads and watches the map, keeps the lease alive. */
    void start(Listener listener);

    /** This node's id. */
    String nodeId();

    /** This node's current lease. */
    long lease();

    /** The current lease and its local deadline. */
    LeaseHandle handle();

    /** The local deadline of the current lease. */
    default LeaseClock clock() {
        return handle().clock();
    }

    /** The owner the watched map shows, if any. */
    Optional<OwnerRecord> ownerOf(String tenant);

    /** The owner as etcd holds it now (a linearizable read, not the watched map). */
    Optional<OwnerRecord> readOwner(String tenant);

    /** Every owner key the watched map shows. */
    Collection<OwnerRecord> owners();

    /** The live nodes, by id. */
    Map<String, NodeRecord> liveNodes();

    /** Writes the tenant's owner key for this node's lease if it is absent. */
    Claim claim(String tenant);

    /** Records the replica epoch while {@code token} still owns the tenant. */
    boolean recordReplica(String tenant, long token, ReplicaRecord record);

    /**
     * In one transaction, while {@code token} still owns the tenant: the owner key passes to
     * {@code to} (attached to its lease) and the replica record is written.
     */
    boolean handOver(String tenant, long token, NodeRecord to, ReplicaRecord record);

    /**
     * In one transaction, while {@code token} owns the tenant: deletes the owner key and writes
     * the replica record ({@code null}: leaves it as it is).
     */
    boolean release(String tenant, long token, ReplicaRecord record);

    /** The replica record of a tenant, read from the store (not the watched map). */
    Optional<ReplicaRecord> replicaOf(String tenant);

    /**
     * Deletes this node's registration while keeping its lease: other nodes stop placing
     * tenants here, and the tenants this node still owns stay its own until it gives them up.
     */
    void leave();

    /** Revokes the lease (every key attached to it goes at once) and closes the client. */
    @Override
    void close();
}

package dev.lanes.fleet;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.fleet.internal.EtcdOwnership;
import dev.lanes.fleet.internal.FleetEvents;
import dev.lanes.fleet.internal.FleetRuntime;
import dev.lanes.fleet.internal.FleetSettings;
import dev.lanes.fleet.internal.LitestreamReplicator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One node of a fleet of Lanes processes that share many tenant databases: each tenant lives on
 * exactly one node at a time, is served there as a local {@link Database}, and moves when that
 * node dies or the fleet is rebalanced.
 *
 * <ul>
 *   <li><b>Ownership</b> is decided by etcd: every node holds a lease; a tenant's owner key is
 *       written only if absent, attached to the owner's lease; the key's revision is the
 *       fencing token, written into the tenant's database with every commit. A node commits
 *       only while its lease is surely held (a local deadline below the TTL); a commit that ends
 *       past it ends {@code UNKNOWN}.
 *   <li><b>Data</b> lives in object storage: Litestream replicates each owned tenant; a node
 *       that takes a tenant restores it first, unless its own copy is provably current.
 *   <li><b>Placement</b>: a tenant nobody owns is claimed on first use by the node rendezvous
 *       hashing picks among the live nodes. When a node's lease expires, the others take its
 *       tenants at once. When a node joins, tenants placement gives it move there. {@link
 *       #close()} hands this node's tenants to the others.
 * </ul>
 *
 * <p>{@link #database(String)} returns the tenant's database when this node serves it, and
 * otherwise throws {@link NotOwnerException} naming the node to ask: forward the request there.
 * Do not keep the returned database past the request: once the tenant moves away it is closed.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class Fleet implements AutoCloseable {
    /**
     * How long a Litestream process's restart for a tenant taken here waits for the other
     * tenants being taken on the same process, so that a failover's burst restarts it once.
     */
    private static final Duration RESTART_HOLD = Duration.ofSeconds(1);
    private static final Duration MIN_SNAPSHOT_INTERVAL = Duration.ofSeconds(1);
    private static final Duration MAX_SNAPSHOT_INTERVAL = Duration.ofHours(24);
    /** Litestream's own retention. */
    private static final Duration DEFAULT_RETENTION = Duration.ofHours(24);
    private final FleetRuntime runtime;
    private final Durability durability;
    private final Lanes ownLanes;
    private final Duration leaseTtl;

    private Fleet(FleetRuntime runtime, Durability durability, Lanes ownLanes,
            Duration leaseTtl) {
        this.runtime = runtime;
        this.durability = durability;
        this.ownLanes = ownLanes;
        this.leaseTtl = leaseTtl;
    }

    /** A builder; node id, etcd, data directory, object store and Litestream are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The local database of {@code tenant}: waits while it is being acquired here (restored
     * first) or moved away, and claims it when nobody owns it and placement picks this node.
     * At {@link Durability#REPLICATED} each write through it (its data source's too) returns
     * once it is in object storage.
     *
     * @throws NotOwnerException when another node owns it or should claim it
     * @throws dev.lanes.InvalidRequestException for a name a tenant cannot have (letters,
     *     digits, '.', '_' and '-', at most 128, no leading dot)
     * @throws dev.lanes.OverloadedException when it was not ready within the acquire timeout
     */
    public Database database(String tenant) {
        return runtime.database(tenant);
    }

    /** The node that owns {@code tenant}, as this node's watch of etcd shows it. */
    public Optional<Member> ownerOf(String tenant) {
        return runtime.ownerOf(tenant);
    }

    /** This node. */
    public Member node() {
        return runtime.member(runtime.nodeId());
    }

    /** The live nodes of the fleet, this one included. */
    public List<Member> members() {
        return runtime.members();
    }

    /** The tenants this node serves now. */
    public Set<String> tenants() {
        return runtime.tenants();
    }

    /**
     * The TTL this node asks for its lease ({@link Builder#leaseTtl}): with {@link
     * FleetStatus#leaseRemaining()} it tells a lease renewed on time from one about to lapse.
     */
    public Duration leaseTtl() {
        return leaseTtl;
    }

    /** The durability writes are acknowledged at. */
    public Durability durability() {
        return durability;
    }

    /**
     * Moves {@code tenant} from this node to node {@code to} (a planned move): requests wait
     * while it drains, its replica catches up and etcd passes the key; then the new owner
     * restores and serves it.
     *
     * @return whether it moved; false when this node did not serve it or the move could not
     *     finish (it then stays here)
     */
    public boolean move(String tenant, String to) {
        return runtime.move(tenant, Objects.requireNonNull(to, "to"));
    }

    /** Moves every tenant that placement gives to another live node there. */
    public void rebalance() {
        runtime.rebalance();
    }

    /** A point-in-time view of this node, for health and meters. */
    public FleetStatus status() {
        return runtime.status();
    }

    /**
     * Leaves the fleet: hands every served tenant to another node (or releases it when none is
     * left), stops replicating, revokes the lease, and closes the runtime if the fleet made it.
     */
    @Override
    public void close() {
        try {
            runtime.close();
        } finally {
            if (ownLanes != null) {
                ownLanes.close();
            }
        }
    }

    /** Builds and starts a {@link Fleet} node. Not thread-safe. */
    public static final class Builder {
        private String nodeId;
        private String address = "";
        private List<String> etcd;
        private String fleetName = "default";
        private Duration leaseTtl = Duration.ofSeconds(2);
        private Duration safetyMargin;
        private Path dataDirectory;
        private ObjectStore objectStore;
        private Path litestream;
        private Duration replicationInterval = Duration.ofMillis(200);
        private Duration snapshotInterval = Duration.ofMinutes(5);
        private Duration retention = DEFAULT_RETENTION;
        private int litestreamProcesses = 8;
        private Durability durability = Durability.LOCAL;
        private Lanes lanes;
        private DatabaseOptions options = DatabaseOptions.DEFAULTS;
        private boolean autoRebalance = true;
        private Duration acquireTimeout = Duration.ofSeconds(10);
        private Duration moveHold = Duration.ofSeconds(2);
        private Duration replicatedTimeout = Duration.ofSeconds(10);
        private int workers = 8;
        private final List<FleetListener> listeners = new ArrayList<>();

        private Builder() {}

        /** This node's id, unique in the fleet: letters, digits, '.', '_', '-'. Required. */
        public Builder nodeId(String id) {
            this.nodeId = id;
            return this;
        }

        /** Where this node serves requests, for other nodes to forward to (opaque to the fleet). */
        public Builder address(String address) {
            this.address = Objects.requireNonNull(address, "address");
            return this;
        }

        /** The etcd client URLs, such as {@code http://10.0.0.1:2379}. Required. */
        public Builder etcd(List<String> endpoints) {
            this.etcd = List.copyOf(endpoints);
            return this;
        }

        /** The fleet's name: nodes with the same etcd and name share tenants. Default "default". */
        public Builder fleetName(String name) {
            this.fleetName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * The node lease's TTL, in whole seconds (etcd grants at least 1.5 election timeouts).
         * A dead node's tenants move after about this long. Default 2 s.
         */
        public Builder leaseTtl(Duration ttl) {
            this.leaseTtl = Objects.requireNonNull(ttl, "ttl");
            return this;
        }

        /**
         * How far before each renewal's TTL the local deadline falls: commits stop that long
         * before etcd could expire the lease. Default a quarter of the TTL.
         */
        public Builder safetyMargin(Duration margin) {
            this.safetyMargin = Objects.requireNonNull(margin, "margin");
            return this;
        }

        /** Where this node keeps its tenants' local copies. Required. */
        public Builder dataDirectory(Path dir) {
            this.dataDirectory = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /** The object store of the replicas. Required. */
        public Builder objectStore(ObjectStore store) {
            this.objectStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The Litestream v0.3 binary. Required. */
        public Builder litestream(Path binary) {
            this.litestream = Objects.requireNonNull(binary, "binary");
            return this;
        }

        /**
         * Litestream's monitor and sync interval: how often new WAL frames are shipped. The
         * main part of the LOCAL recovery window and of REPLICATED's added latency. Default
         * 200 ms.
         */
        public Builder replicationInterval(Duration interval) {
            this.replicationInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * How often Litestream uploads a snapshot of each replicated tenant (the whole
         * database) into its epoch's replica; Litestream also checkpoints a written tenant at
         * least this often (at most every minute), which starts a new WAL index. A restore
         * reads a recent snapshot (the newest of an index the stored WAL has gone past) and the
         * WAL from the start of its index on, so this bounds what a new owner reads to about
         * this interval plus two checkpoint intervals of the tenant's writes. Each snapshot
         * uploads the whole database, written or not; a busy tenant's snapshots stay in the
         * store for the {@linkplain #retention retention} or until the epoch's replica is
         * deleted, an idle one's replace one another. A shorter interval means shorter restores
         * of busy tenants for more uploads and storage. Between 1 s and 24 h, and no longer than
         * the retention; default 5 min.
         *
         * @throws IllegalArgumentException for an interval outside those bounds
         */
        public Builder snapshotInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.compareTo(MIN_SNAPSHOT_INTERVAL) < 0
                    || interval.compareTo(MAX_SNAPSHOT_INTERVAL) > 0) {
                throw new IllegalArgumentException("snapshotInterval between 1 s and 24 h: "
                        + interval);
            }
            this.snapshotInterval = interval;
            return this;
        }

        /**
         * How long each tenant's replica keeps its snapshots and WAL (Litestream's {@code
         * retention}): what a point-in-time restore with Litestream's own tools can go back to,
         * and what the store holds for a busy tenant, about one snapshot (the whole database)
         * per {@linkplain #snapshotInterval snapshot interval} of it, plus its WAL, up to twice
         * over until Litestream's next retention check. A new owner restores from the newest
         * snapshot only, so failover does not need more than one interval. At least 1 min and
         * the snapshot interval; default 24 h, Litestream's own.
         *
         * @throws IllegalArgumentException for a retention under 1 min
         */
        public Builder retention(Duration retention) {
            Objects.requireNonNull(retention, "retention");
            if (retention.compareTo(Duration.ofMinutes(1)) < 0) {
                throw new IllegalArgumentException("retention at least 1 min: " + retention);
            }
            this.retention = retention;
            return this;
        }

        /**
         * How many Litestream processes share this node's tenants. A tenant taken or given up
         * restarts the one process it belongs to, and that restart makes each of its tenants
         * written since take a new snapshot; more processes mean fewer tenants per restart, at
         * about 28 MB each. Default 8.
         */
        public Builder litestreamProcesses(int count) {
            this.litestreamProcesses = count;
            return this;
        }

        /** When writes are acknowledged. Default {@link Durability#LOCAL}. */
        public Builder durability(Durability durability) {
            this.durability = Objects.requireNonNull(durability, "durability");
            return this;
        }

        /** The runtime tenants open in; default a runtime of the fleet's own, closed with it. */
        public Builder lanes(Lanes lanes) {
            this.lanes = Objects.requireNonNull(lanes, "lanes");
            return this;
        }

        /**
         * The tenants' database options; the fleet adds its commit fence and {@code EXTERNAL}
         * checkpoints (Litestream's).
         */
        public Builder databaseOptions(DatabaseOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** Whether a node that joins gets its tenants by planned moves. Default true. */
        public Builder autoRebalance(boolean on) {
            this.autoRebalance = on;
            return this;
        }

        /** How long a request waits for a tenant being acquired here. Default 10 s. */
        public Builder acquireTimeout(Duration timeout) {
            this.acquireTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** How long a request waits for a tenant moving away before it is sent on. Default 2 s. */
        public Builder moveHold(Duration hold) {
            this.moveHold = Objects.requireNonNull(hold, "hold");
            return this;
        }

        /** How long a REPLICATED write waits for its replication. Default 10 s. */
        public Builder replicatedTimeout(Duration timeout) {
            this.replicatedTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Threads that acquire, restore and move tenants in parallel. Default 8. */
        public Builder workers(int threads) {
            this.workers = threads;
            return this;
        }

        /**
         * Adds a listener told when this node acquires, releases or loses a tenant, restores
         * one, or refuses a commit (see {@link FleetListener}); called once per listener.
         */
        public Builder listener(FleetListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Joins the fleet: grants the lease, registers the node (waiting for a previous process
         * with the same id to lose its lease), loads and watches the ownership map.
         */
        public Fleet build() {
            Objects.requireNonNull(nodeId, "nodeId");
            Objects.requireNonNull(etcd, "etcd");
            Objects.requireNonNull(dataDirectory, "dataDirectory");
            Objects.requireNonNull(objectStore, "objectStore");
            Objects.requireNonNull(litestream, "litestream");
            if (!nodeId.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException("node id: letters, digits, '.', '_', '-': "
                        + nodeId);
            }
            if (leaseTtl.compareTo(Duration.ofSeconds(1)) < 0 || workers < 1
                    || litestreamProcesses < 1) {
                throw new IllegalArgumentException("leaseTtl >= 1 s, workers and "
                        + "litestreamProcesses >= 1");
            }
            if (retention.compareTo(snapshotInterval) < 0) {
                throw new IllegalArgumentException("retention " + retention
                        + " shorter than the snapshot interval " + snapshotInterval);
            }
            Duration margin = safetyMargin != null ? safetyMargin : leaseTtl.dividedBy(4);
            if (margin.isNegative() || margin.compareTo(leaseTtl.dividedBy(2)) > 0) {
                throw new IllegalArgumentException("safetyMargin between 0 and half the TTL");
            }
            Lanes own = lanes == null ? Lanes.builder().name("fleet-" + nodeId).build() : null;
            Lanes runtimeLanes = lanes != null ? lanes : own;
            FleetSettings settings = new FleetSettings(nodeId, dataDirectory, runtimeLanes,
                    options, durability, replicatedTimeout, acquireTimeout, moveHold,
                    autoRebalance, workers);
            EtcdOwnership ownership = new EtcdOwnership(etcd, fleetName, nodeId, address,
                    leaseTtl, margin);
            LitestreamReplicator replicator = new LitestreamReplicator(litestream,
                    dataDirectory.resolve("litestream"), objectStore, litestreamProcesses,
                    replicationInterval, snapshotInterval, retention, Duration.ofMillis(100),
                    RESTART_HOLD);
            FleetRuntime runtime = new FleetRuntime(settings, ownership, replicator,
                    new FleetEvents(listeners));
            try {
                runtime.start();
            } catch (RuntimeException e) {
                replicator.close();
                ownership.close();
                if (own != null) {
                    own.close();
                }
                throw e;
            }
            return new Fleet(runtime, durability, own, leaseTtl);
        }
    }
}

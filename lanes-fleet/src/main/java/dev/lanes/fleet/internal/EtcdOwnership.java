package dev.lanes.fleet.internal;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Ownership} on etcd v3 through jetcd. Keys under {@code /lanes-fleet/<fleet>/}:
 * <ul>
 *   <li>{@code nodes/<id>}: the node's address, attached to its lease;
 *   <li>{@code owners/<tenant>}: the owning node's id, attached to the owner's lease; its
 *       modification revision is the fencing token;
 *   <li>{@code replicas/<tenant>}: the {@link ReplicaRecord}, without a lease.
 * </ul>
 *
 * <p>The lease is kept alive by one thread that sends a keep-alive every quarter of the TTL
 * and moves the {@link LeaseClock} to each answered keep-alive's send time plus the TTL less the
 * margin. A keep-alive answered with no TTL (the lease expired on etcd's side) loses the lease:
 * the listener hears it, and the node registers again on a new lease.
 *
 * <p>Thread-safety: the maps are concurrent; the watch's events are applied on jetcd's watch
 * thread in revision order; the keep-alive runs on its own thread.
 */
public final class EtcdOwnership implements Ownership {
    private static final Logger log = LoggerFactory.getLogger(EtcdOwnership.class);
    private static final long CALL_SECONDS = 5;

    private final String nodeId;
    private final String address;
    private final long ttlSeconds;
    private final Client client;
    private final KV kv;
    private final long marginNanos;
    private final String prefix;
    private final Map<String, OwnerRecord> owners = new ConcurrentHashMap<>();
    private final Map<String, NodeRecord> nodes = new ConcurrentHashMap<>();
    private final ScheduledExecutorService keeper;
    private volatile LeaseHandle lease = new LeaseHandle(0, new LeaseClock(0));
    private volatile Listener listener;
    private volatile Watch.Watcher watcher;
    private volatile boolean closed;

    /**
     * @param endpoints etcd client URLs
     * @param fleet the fleet's name, the key prefix every node of one fleet shares
     * @param nodeId this node's id
     * @param address where this node serves requests, for other nodes to forward to
     * @param ttl the lease's TTL (etcd rounds it up to whole seconds, and to its minimum)
     * @param margin how far before each renewal's TTL the local deadline falls
     */
    public EtcdOwnership(List<String> endpoints, String fleet, String nodeId, String address,
            Duration ttl, Duration margin) {
        this.nodeId = nodeId;
        this.address = address;
        this.ttlSeconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
        this.marginNanos = margin.toNanos();
        this.prefix = "/lanes-fleet/" + fleet + "/";
        this.client = Client.builder().endpoints(endpoints.toArray(String[]::new))
                .connectTimeout(Duration.ofSeconds(1))
                .retryMaxDuration(Duration.ofSeconds(2))
                .keepaliveTime(Duration.ofSeconds(5))
                .keepaliveTimeout(Duration.ofSeconds(2))
                .build();
        this.kv = client.getKVClient();
        this.keeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fleet-lease-" + nodeId);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void start(Listener l) {
        this.listener = l;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                register(deadline); // etcd may be electing a leader: try for a while
                break;
            } catch (EtcdUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                log.warn("fleet {}: joining failed ({}); trying again", nodeId, e.getMessage());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            }
        }
        load();
        long period = Math.max(100, ttlSeconds * 1000 / 4);
        keeper.scheduleWithFixedDelay(this::keepAlive, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    @Override
    public long lease() {
        return lease.id();
    }

    @Override
    public LeaseHandle handle() {
        return lease;
    }

    @Override
    public Optional<OwnerRecord> ownerOf(String tenant) {
        return Optional.ofNullable(owners.get(tenant));
    }

    @Override
    public Optional<OwnerRecord> readOwner(String tenant) {
        GetResponse r = call(kv.get(bytes(prefix + "owners/" + tenant)));
        if (r.getKvs().isEmpty()) {
            return Optional.empty();
        }
        KeyValue k = r.getKvs().get(0);
        return Optional.of(new OwnerRecord(tenant, text(k.getValue()), k.getModRevision(),
                k.getLease()));
    }

    @Override
    public Collection<OwnerRecord> owners() {
        return List.copyOf(owners.values());
    }

    @Override
    public Map<String, NodeRecord> liveNodes() {
        return Map.copyOf(nodes);
    }

    /**
     * Grants a lease and writes this node's key if absent. A key left by this node's previous
     * process stays until that process's lease expires, so this waits for it (at most two TTLs
     * and a little more): a restarted node never takes over keys of the lease it lost.
     */
    private void register(long joinDeadline) {
        long sent = System.nanoTime();
        // the first call of a new client also sets up its channel, which on a loaded machine
        // can take longer than one call's bound: it may wait until the join's deadline rather
        // than be abandoned and started over
        long id = call(client.getLeaseClient().grant(ttlSeconds),
                Math.max(CALL_SECONDS, TimeUnit.NANOSECONDS.toSeconds(joinDeadline - sent))).getID();
        LeaseClock clock = new LeaseClock(marginNanos);
        clock.renewed(sent, ttlSeconds);
        lease.clock().lose();
        lease = new LeaseHandle(id, clock);
        ByteSequence key = bytes(prefix + "nodes/" + nodeId);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2 * ttlSeconds + 10);
        while (true) {
            TxnResponse r = call(kv.txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                    .Then(Op.put(key, bytes(address), PutOption.builder().withLeaseId(id).build()))
                    .commit());
            if (r.isSucceeded()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("node id " + nodeId + " is registered by a live"
                        + " lease: another node runs with the same id");
            }
            keepAliveOnce();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    /** Loads both maps and watches them from the revision after the load. */
    private void load() {
        GetResponse all = call(kv.get(bytes(prefix), GetOption.builder().isPrefix(true).build()));
        owners.clear();
        nodes.clear();
        for (KeyValue kvp : all.getKvs()) {
            apply(kvp, false);
        }
        Listener l = listener;
        l.nodesChanged(liveNodes());
        for (OwnerRecord o : owners.values()) {
            l.ownerChanged(o.tenant(), null, o);
        }
        long from = all.getHeader().getRevision() + 1;
        watcher = client.getWatchClient().watch(bytes(prefix),
                WatchOption.builder().isPrefix(true).withRevision(from).withPrevKV(true).build(),
                Watch.listener(this::onWatch, this::onWatchError));
    }

    private void onWatch(WatchResponse response) {
        for (WatchEvent e : response.getEvents()) {
            if (e.getEventType() == WatchEvent.EventType.PUT) {
                apply(e.getKeyValue(), true);
            } else if (e.getEventType() == WatchEvent.EventType.DELETE) {
                remove(text(e.getKeyValue().getKey()));
            }
        }
    }

    private void onWatchError(Throwable t) {
        if (closed) {
            return;
        }
        log.warn("fleet {}: the ownership watch failed ({}); loading the map again", nodeId,
                t.toString());
        keeper.execute(this::reload);
    }

    private void reload() {
        try {
            Watch.Watcher w = watcher;
            if (w != null) {
                w.close();
            }
            load();
        } catch (RuntimeException e) {
            log.warn("fleet {}: reloading the ownership map failed: {}", nodeId, e.toString());
            keeper.schedule(this::reload, 500, TimeUnit.MILLISECONDS);
        }
    }

    private void apply(KeyValue kvp, boolean notify) {
        String key = text(kvp.getKey());
        String rest = key.substring(prefix.length());
        if (rest.startsWith("owners/")) {
            String tenant = rest.substring("owners/".length());
            OwnerRecord after = new OwnerRecord(tenant, text(kvp.getValue()), kvp.getModRevision(),
                    kvp.getLease());
            OwnerRecord before = owners.put(tenant, after);
            if (notify) {
                listener.ownerChanged(tenant, before, after);
            }
        } else if (rest.startsWith("nodes/")) {
            String id = rest.substring("nodes/".length());
            nodes.put(id, new NodeRecord(id, text(kvp.getValue()), kvp.getLease()));
            if (notify) {
                listener.nodesChanged(liveNodes());
            }
        }
    }

    private void remove(String key) {
        String rest = key.substring(prefix.length());
        if (rest.startsWith("owners/")) {
            String tenant = rest.substring("owners/".length());
            OwnerRecord before = owners.remove(tenant);
            listener.ownerChanged(tenant, before, null);
        } else if (rest.startsWith("nodes/")) {
            nodes.remove(rest.substring("nodes/".length()));
            listener.nodesChanged(liveNodes());
        }
    }

    private void keepAlive() {
        if (closed) {
            return;
        }
        try {
            if (!keepAliveOnce()) {
                log.warn("fleet {}: lease {} expired on etcd's side; registering again", nodeId,
                        lease.id());
                lease.clock().lose();
                listener.leaseLost();
                register(System.nanoTime()); // one call's bound: the client is set up
            }
        } catch (RuntimeException e) {
            // etcd unreachable for now: the deadline lapses by itself if this goes on
            log.debug("fleet {}: keep-alive failed: {}", nodeId, e.toString());
        }
    }

    /** One keep-alive; false when etcd says the lease is gone. */
    private boolean keepAliveOnce() {
        LeaseHandle h = lease;
        long sent = System.nanoTime();
        try {
            LeaseKeepAliveResponse r = client.getLeaseClient().keepAliveOnce(h.id())
                    .get(Math.max(1, ttlSeconds / 2), TimeUnit.SECONDS);
            if (r.getTTL() <= 0) {
                return false;
            }
            h.clock().renewed(sent, r.getTTL());
            return true;
        } catch (ExecutionException e) {
            String m = String.valueOf(e.getCause());
            if (m.contains("lease not found") || m.contains("requested lease not found")) {
                return false;
            }
            throw new IllegalStateException(m, e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("keep-alive timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public Claim claim(String tenant) {
        ByteSequence owner = bytes(prefix + "owners/" + tenant);
        ByteSequence replica = bytes(prefix + "replicas/" + tenant);
        LeaseHandle h = lease;
        long myLease = h.id();
        TxnResponse r = call(kv.txn()
                .If(new Cmp(owner, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(owner, bytes(nodeId), PutOption.builder().withLeaseId(myLease).build()),
                        Op.get(replica, GetOption.DEFAULT))
                .Else(Op.get(owner, GetOption.DEFAULT), Op.get(replica, GetOption.DEFAULT))
                .commit());
        List<GetResponse> gets = r.getGetResponses();
        GetResponse replicaGet = gets.get(gets.size() - 1);
        ReplicaRecord rec = replicaGet.getKvs().isEmpty() ? null
                : ReplicaRecord.decode(text(replicaGet.getKvs().get(0).getValue()));
        if (r.isSucceeded()) {
            OwnerRecord mine = new OwnerRecord(tenant, nodeId, r.getHeader().getRevision(), myLease);
            return new Claim(true, mine, rec, h);
        }
        List<KeyValue> current = gets.get(0).getKvs();
        OwnerRecord other = current.isEmpty() ? null : new OwnerRecord(tenant,
                text(current.get(0).getValue()), current.get(0).getModRevision(),
                current.get(0).getLease());
        return new Claim(false, other, rec, h);
    }

    @Override
    public boolean recordReplica(String tenant, long token, ReplicaRecord record) {
        ByteSequence owner = bytes(prefix + "owners/" + tenant);
        return call(kv.txn()
                .If(new Cmp(owner, Cmp.Op.EQUAL, CmpTarget.modRevision(token)))
                .Then(Op.put(bytes(prefix + "replicas/" + tenant), bytes(record.encode()),
                        PutOption.DEFAULT))
                .commit()).isSucceeded();
    }

    @Override
    public boolean handOver(String tenant, long token, NodeRecord to, ReplicaRecord record) {
        ByteSequence owner = bytes(prefix + "owners/" + tenant);
        try {
            return call(kv.txn()
                    .If(new Cmp(owner, Cmp.Op.EQUAL, CmpTarget.modRevision(token)))
                    .Then(Op.put(owner, bytes(to.id()),
                                    PutOption.builder().withLeaseId(to.lease()).build()),
                            Op.put(bytes(prefix + "replicas/" + tenant), bytes(record.encode()),
                                    PutOption.DEFAULT))
                    .commit()).isSucceeded();
        } catch (EtcdUnavailableException e) {
            if (String.valueOf(e.getMessage()).contains("lease not found")) {
                return false; // the target's lease is gone: etcd refused the whole transaction
            }
            throw e;
        }
    }

    @Override
    public void leave() {
        call(kv.delete(bytes(prefix + "nodes/" + nodeId)));
    }

    @Override
    public boolean release(String tenant, long token, ReplicaRecord record) {
        ByteSequence owner = bytes(prefix + "owners/" + tenant);
        Op delete = Op.delete(owner, DeleteOption.DEFAULT);
        Op[] then = record == null ? new Op[] {delete} : new Op[] {delete,
                Op.put(bytes(prefix + "replicas/" + tenant), bytes(record.encode()),
                        PutOption.DEFAULT)};
        return call(kv.txn()
                .If(new Cmp(owner, Cmp.Op.EQUAL, CmpTarget.modRevision(token)))
                .Then(then)
                .commit()).isSucceeded();
    }

    @Override
    public Optional<ReplicaRecord> replicaOf(String tenant) {
        GetResponse r = call(kv.get(bytes(prefix + "replicas/" + tenant)));
        return r.getKvs().isEmpty() ? Optional.empty()
                : Optional.of(ReplicaRecord.decode(text(r.getKvs().get(0).getValue())));
    }

    @Override
    public void close() {
        closed = true;
        keeper.shutdownNow();
        Watch.Watcher w = watcher;
        if (w != null) {
            w.close();
        }
        LeaseHandle h = lease;
        h.clock().lose();
        try {
            client.getLeaseClient().revoke(h.id()).get(CALL_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("fleet {}: revoking lease {} failed ({}); it expires by itself", nodeId,
                    h.id(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            client.close();
        }
    }

    private static <T> T call(java.util.concurrent.CompletableFuture<T> f) {
        return call(f, CALL_SECONDS);
    }

    private static <T> T call(java.util.concurrent.CompletableFuture<T> f, long seconds) {
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new EtcdUnavailableException("etcd: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new EtcdUnavailableException("etcd did not answer within " + seconds + " s",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnavailableException("interrupted while waiting for etcd", e);
        }
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static String text(ByteSequence b) {
        return b.toString(StandardCharsets.UTF_8);
    }
}

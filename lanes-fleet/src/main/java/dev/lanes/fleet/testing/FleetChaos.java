package dev.lanes.fleet.testing;

import dev.lanes.fleet.Durability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The fleet chaos scenario ({@code lanes bench --scenario fleet}, and shorter in the test
 * suite): fleet nodes as child JVMs on a 3-member etcd cluster, s3proxy and Litestream, clients
 * writing unique ids into many tenants through whichever node they reach, and, one after the
 * other: {@code kill -9} of a node; SIGSTOP of a node past its lease, then SIGCONT; an etcd
 * member killed; a node and the etcd leader killed together (a leader change renews every
 * lease: the worst failover); a node added (a rebalance by planned moves); a rolling restart of
 * every node. Then every tenant is checked ({@link ChaosVerifier}).
 *
 * <p>Failover time is measured per tenant of the failed node: from the kill (or the SIGSTOP) to
 * the first write to the tenant acknowledged after it, probed by a writer per tenant that tries
 * until it answers. A planned move's pause is the longest gap between acknowledged
 * writes of a hot tenant (written back to back by a thread of its own) across its move.
 */
public final class FleetChaos {
    /**
     * How long a failed node's tenants may take to serve again before the run calls them
     * unserved: far above the lease, because on a loaded machine each restore alone can take
     * tens of seconds.
     */
    private static final Duration PROBE_BOUND = Duration.ofSeconds(120);
    /** The most probe threads of one event. */
    private static final int PROBES = 256;
    /**
     * @param nodes fleet nodes at the start
     * @param tenants tenants written
     * @param clients background writer threads
     * @param hotTenants tenants written back to back, each by a thread of its own
     * @param phase how long writes run between events
     * @param rpoBound the longest a LOCAL loss may precede its event (the recovery window)
     */
    public record Plan(int nodes, int tenants, int clients, int hotTenants, Duration phase,
            Duration rpoBound) {}

    private final LocalEtcd etcd;
    private final LocalFleet fleet;
    private final Plan plan;
    private final LocalFleet.Settings settings;
    private final Consumer<String> progress;
    /**
     * A client gives up on an answer only after the node it asked could have forwarded it and
     * the owner waited its longest (for a tenant being acquired, then for a REPLICATED write's
     * upload), so that a write a node still acknowledges is not counted unknown.
     */
    private static final Duration CLIENT_TIMEOUT = FleetNodeMain.FORWARD_TIMEOUT.plusSeconds(30);
    private final ChaosLedger ledger = new ChaosLedger(CLIENT_TIMEOUT);
    private final ChaosReport report = new ChaosReport();
    private final List<String> tenants = new ArrayList<>();
    private final List<Long> disruptions = new ArrayList<>();
    /** Nodes clients may send to: not killed (a paused one stays: its requests time out). */
    private final List<String> reachable = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Map<String, ConcurrentLinkedQueue<ChaosLedger.Write>> hot =
            new ConcurrentHashMap<>();

    private final Path dir;
    private final long origin = System.nanoTime();

    private FleetChaos(Path dir, LocalEtcd etcd, LocalFleet fleet, Plan plan,
            LocalFleet.Settings settings, Consumer<String> progress) {
        this.dir = dir;
        this.etcd = etcd;
        this.fleet = fleet;
        this.plan = plan;
        this.settings = settings;
        this.progress = line -> progress.accept(String.format("%s (+%.1f s) %s",
                java.time.LocalTime.now(java.time.ZoneOffset.UTC), (System.nanoTime() - origin) / 1e9,
                line));
    }

    /** Runs the scenario on the given engines; every node it starts is stopped before it returns. */
    public static ChaosReport run(Path dir, LocalEtcd etcd, LocalObjectStore store,
            Path litestream, LocalFleet.Settings settings, Plan plan, Consumer<String> progress)
            throws InterruptedException {
        try (LocalFleet fleet = new LocalFleet(dir, etcd, store.objectStore(), litestream,
                settings)) {
            return new FleetChaos(dir, etcd, fleet, plan, settings, progress).run();
        }
    }

    /**
     * One {@code kill -9} of the busiest node and nothing else, with no background writes: its
     * tenants' failover times and {@link FailoverTimeline}. Every node is stopped before it
     * returns.
     */
    public static ChaosReport failover(Path dir, LocalEtcd etcd, LocalObjectStore store,
            Path litestream, LocalFleet.Settings settings, Plan plan, Consumer<String> progress)
            throws InterruptedException {
        return failover(dir, etcd, store, litestream, settings, plan, progress, false);
    }

    /**
     * As {@link #failover}, with etcd's leader killed together with the node: the new leader
     * renews every lease, the dead node's too, so its tenants wait for an election and a TTL.
     */
    public static ChaosReport failoverWithEtcdLeader(Path dir, LocalEtcd etcd,
            LocalObjectStore store, Path litestream, LocalFleet.Settings settings, Plan plan,
            Consumer<String> progress) throws InterruptedException {
        return failover(dir, etcd, store, litestream, settings, plan, progress, true);
    }

    private static ChaosReport failover(Path dir, LocalEtcd etcd, LocalObjectStore store,
            Path litestream, LocalFleet.Settings settings, Plan plan, Consumer<String> progress,
            boolean withLeader) throws InterruptedException {
        try (LocalFleet fleet = new LocalFleet(dir, etcd, store.objectStore(), litestream,
                settings)) {
            FleetChaos chaos = new FleetChaos(dir, etcd, fleet, plan, settings, progress);
            long started = System.nanoTime();
            chaos.place();
            if (withLeader) {
                chaos.killNodeAndEtcdLeader();
            } else {
                chaos.killBusiest();
            }
            chaos.report.elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            return chaos.report;
        }
    }

    private void place() throws InterruptedException {
        report.durability = settings.durability().name();
        report.tenants = plan.tenants();
        for (int i = 0; i < plan.nodes(); i++) {
            reachable.add(fleet.add().address());
        }
        for (int i = 0; i < plan.tenants(); i++) {
            tenants.add(String.format("t%04d", i));
        }
        progress.accept("placing " + plan.tenants() + " tenants on " + plan.nodes() + " nodes");
        probe("placement", tenants, System.nanoTime(), false);
    }

    private ChaosReport run() throws InterruptedException {
        long started = System.nanoTime();
        place();
        List<Thread> writers = startWriters();
        try {
            pause(plan.phase());
            killNode();
            pauseNode();
            killEtcdMember();
            killNodeAndEtcdLeader();
            addNode();
            rollingRestart();
            pause(plan.phase());
        } finally {
            stop.set(true);
            for (Thread t : writers) {
                // a write still in flight may yet commit: the ledger must know its outcome
                t.join(CLIENT_TIMEOUT.plusSeconds(10).toMillis());
            }
            dumpLedger(); // also when an event failed: what the clients saw until then
        }
        progress.accept("verifying every tenant");
        ChaosVerifier.verify(ledger, tenants, () -> List.copyOf(reachable),
                settings.durability() == Durability.REPLICATED, disruptions,
                plan.rpoBound().toMillis(), report);
        report.elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        return report;
    }

    private void dumpLedger() {
        Path file = dir.resolve("ledger.tsv");
        try {
            ledger.dump(file, origin);
            progress.accept("every write is listed in " + file);
        } catch (java.io.IOException e) {
            progress.accept("the ledger could not be written: " + e);
        }
    }

    private List<Thread> startWriters() {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < plan.clients(); i++) {
            threads.add(daemon("chaos-client-" + i, () -> {
                while (!stop.get()) {
                    String t = tenants.get(ThreadLocalRandom.current().nextInt(tenants.size()));
                    ledger.write(t, () -> reachable);
                }
            }));
        }
        for (int i = 0; i < Math.min(plan.hotTenants(), tenants.size()); i++) {
            String t = tenants.get(i);
            ConcurrentLinkedQueue<ChaosLedger.Write> q = new ConcurrentLinkedQueue<>();
            hot.put(t, q);
            threads.add(daemon("chaos-hot-" + t, () -> {
                while (!stop.get()) {
                    q.add(ledger.write(t, () -> reachable));
                }
            }));
        }
        return threads;
    }

    /** The tenants a node serves, as it says. */
    private List<String> tenantsOf(LocalFleet.Node node) {
        String body = ledger.get(node.address(), "/tenants");
        return body == null ? List.of() : body.lines().filter(l -> !l.isBlank()).toList();
    }

    private LocalFleet.Node busiest() {
        LocalFleet.Node best = null;
        int most = -1;
        for (LocalFleet.Node n : fleet.nodes()) {
            if (n.alive()) {
                int count = tenantsOf(n).size();
                if (count > most) {
                    most = count;
                    best = n;
                }
            }
        }
        return best;
    }

    private void killNode() throws InterruptedException {
        LocalFleet.Node victim = killBusiest();
        pause(plan.phase());
        fleet.restart(victim);
        reachable.add(victim.address());
        report.events.add("restart " + victim.id());
        pause(plan.phase());
    }

    /** {@code kill -9} of the node serving the most tenants, probed until they serve again. */
    private LocalFleet.Node killBusiest() throws InterruptedException {
        LocalFleet.Node victim = busiest();
        List<String> owned = tenantsOf(victim);
        progress.accept("kill -9 " + victim.id() + " (" + owned.size() + " tenants)");
        reachable.remove(victim.address());
        long at = System.nanoTime();
        fleet.kill(victim);
        disruptions.add(at);
        report.events.add("kill -9 " + victim.id());
        probe("kill -9 of a node", owned, at, true);
        return victim;
    }

    private void pauseNode() throws InterruptedException {
        LocalFleet.Node victim = busiest();
        List<String> owned = tenantsOf(victim);
        progress.accept("SIGSTOP " + victim.id() + " past its lease (" + owned.size()
                + " tenants)");
        long at = System.nanoTime();
        fleet.pause(victim);
        disruptions.add(at);
        report.events.add("SIGSTOP " + victim.id());
        Thread resumer = daemon("chaos-resume", () -> {
            LockSupport.parkNanos(fleet.ttl().plusSeconds(3).toNanos());
            fleet.resume(victim);
        });
        probe("SIGSTOP of a node past its lease", owned, at, true);
        resumer.join();
        report.events.add("SIGCONT " + victim.id());
        pause(plan.phase());
    }

    private void killEtcdMember() throws InterruptedException {
        LocalEtcd.Member leader = etcd.leader();
        progress.accept("kill -9 of etcd's leader " + leader.name());
        long before = failures();
        etcd.kill(leader);
        report.events.add("kill -9 etcd " + leader.name());
        pause(plan.phase());
        etcd.restart(leader);
        report.events.add("restart etcd " + leader.name() + " (" + (failures() - before)
                + " writes not acknowledged meanwhile)");
        pause(plan.phase());
    }

    private void killNodeAndEtcdLeader() throws InterruptedException {
        LocalFleet.Node victim = busiest();
        List<String> owned = tenantsOf(victim);
        LocalEtcd.Member leader = etcd.leader();
        progress.accept("kill -9 " + victim.id() + " and etcd's leader " + leader.name()
                + " together");
        reachable.remove(victim.address());
        long at = System.nanoTime();
        fleet.kill(victim);
        etcd.kill(leader);
        disruptions.add(at);
        report.events.add("kill -9 " + victim.id() + " + etcd " + leader.name());
        probe("kill -9 of a node and etcd's leader", owned, at, true);
        etcd.restart(leader);
        fleet.restart(victim);
        reachable.add(victim.address());
        pause(plan.phase());
    }

    private void addNode() throws InterruptedException {
        progress.accept("adding a node (rebalance by planned moves)");
        long before = failures();
        long from = System.nanoTime();
        LocalFleet.Node added = fleet.add();
        reachable.add(added.address());
        report.events.add("add " + added.id());
        pause(plan.phase().multipliedBy(2));
        recordMoves(from, System.nanoTime());
        report.failedDuringMoves += failures() - before;
        recordFailures(from, System.nanoTime());
    }

    private void rollingRestart() throws InterruptedException {
        progress.accept("rolling restart of every node");
        long before = failures();
        long from = System.nanoTime();
        for (LocalFleet.Node n : fleet.nodes()) {
            reachable.remove(n.address()); // clients go elsewhere while it hands over
            fleet.closeGracefully(n);
            fleet.restart(n);
            reachable.add(n.address());
            report.events.add("rolling restart " + n.id());
            pause(plan.phase());
        }
        recordMoves(from, System.nanoTime());
        report.failedDuringMoves += failures() - before;
        recordFailures(from, System.nanoTime());
    }

    /** What the writes not acknowledged between {@code from} and {@code to} were told, counted. */
    private void recordFailures(long from, long to) {
        for (ChaosLedger.Write w : ledger.all()) {
            if (w.outcome() != ChaosLedger.Outcome.ACKED && w.sentNanos() >= from
                    && w.sentNanos() <= to) {
                String why = w.outcome() + " " + String.valueOf(w.detail())
                        .replaceAll("[0-9]+", "N");
                report.moveFailures.merge(why.length() > 160 ? why.substring(0, 160) : why, 1L,
                        Long::sum);
            }
        }
    }

    /** For each hot tenant, the longest gap between acknowledged writes where its owner changed. */
    private void recordMoves(long from, long to) {
        hot.forEach((tenant, writes) -> {
            ChaosLedger.Write previous = null;
            for (ChaosLedger.Write w : writes) {
                if (w.outcome() != ChaosLedger.Outcome.ACKED || w.endNanos() < from
                        || w.sentNanos() > to) {
                    continue;
                }
                if (previous != null && !previous.node().equals(w.node())) {
                    report.movePauses.add((w.endNanos() - previous.endNanos()) / 1_000_000);
                }
                previous = w;
            }
        });
    }

    /** Writes not acknowledged so far. */
    private long failures() {
        return ledger.all().stream().filter(w -> w.outcome() != ChaosLedger.Outcome.ACKED).count();
    }

    /**
     * Writes to each of {@code owned} until it is acknowledged once, with a thread per tenant
     * (at most {@value #PROBES}); records each tenant's time from {@code at} (when {@code
     * record}) and, for a failover, its {@link FailoverTimeline}.
     */
    private void probe(String event, List<String> owned, long at, boolean record)
            throws InterruptedException {
        ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>(owned);
        Map<String, Long> served = new ConcurrentHashMap<>();
        java.time.LocalTime wallAt = java.time.LocalTime.now().minusNanos(System.nanoTime() - at);
        long deadline = at + PROBE_BOUND.toNanos();
        // a probe waits for its tenant's acquisition: one each, so that a tenant served
        // already is never measured behind others still being restored
        int threads = Math.max(1, Math.min(PROBES, owned.size()));
        CountDownLatch done = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            daemon("chaos-probe-" + i, () -> {
                try {
                    for (String t; (t = queue.poll()) != null && System.nanoTime() < deadline; ) {
                        ChaosLedger.Write w = ledger.write(t, () -> reachable);
                        if (w.outcome() == ChaosLedger.Outcome.ACKED && w.sentNanos() >= at) {
                            served.put(t, (w.endNanos() - at) / 1_000_000);
                        } else {
                            queue.add(t);
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();
        List<Long> times = List.copyOf(served.values());
        if (record) {
            report.failovers.put(event, times);
            report.unserved.put(event, owned.size() - times.size());
        }
        progress.accept(String.format("%s: %d tenants served again, p50 %d ms, p99 %d ms",
                event, times.size(), ChaosReport.percentile(times, 50),
                ChaosReport.percentile(times, 99)));
        if (record) {
            String table = FailoverTimeline.read(fleet.nodes().stream()
                    .map(n -> n.process().log()).toList(), wallAt, served).table();
            report.timelines.put(event, table);
            progress.accept(event + ", per tenant, ms from the event:\n" + table);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void pause(Duration d) {
        LockSupport.parkNanos(d.toNanos());
    }
}

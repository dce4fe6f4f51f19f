package dev.lanes.micrometer;

import dev.lanes.MetricsListener.DatabaseGauges;
import dev.lanes.MetricsListener.PoolGauges;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which meters the events of each database count in, as the {@link DatabaseTagging} policy
 * decides: the open databases, the meters of the databases tagged by name, the shared meters of
 * the others, the gauges bound for each, and the busiest ranking. See {@link MicrometerMetrics}
 * for the lifetimes this keeps.
 *
 * <p>Concurrency: the per-event paths ({@link #meters}, {@link #active}) take no lock and
 * allocate nothing once their meters exist: a database's entry is looked up in {@link #open} (a
 * concurrent map) and its current meters read from the entry's volatile field. Binding and
 * unbinding gauges (database open and close, runtime start, ranking, close) happen under {@link
 * #bindLock}, which guards {@link #runtimeGauges}, {@link #sharedGaugesBound}, {@link #closed},
 * every change of {@link #open} and {@link #named}, and every entry's meters. Ranking runs under
 * {@link #rankLock}, taken with {@code tryLock} by the first event after {@link #nextRankAt}, so
 * no event ever waits for a ranking; ranking takes {@code bindLock} inside {@code rankLock},
 * never the reverse. {@link FoldedGauges} scans {@code open} under a lock of its own, taken
 * inside neither.
 */
final class MeterDirectory {
    private static final Logger log = LoggerFactory.getLogger("dev.lanes.micrometer");

    private final MeterRegistry registry;
    private final Tags commonTags;
    private final DatabaseTagging tagging;
    private final double[] percentiles;
    private final GaugeBinder binder;
    private final boolean ranking;
    private final long rankPeriodNanos;

    /** The databases that opened through this binding and have not closed. */
    private final ConcurrentHashMap<String, OpenDatabase> open = new ConcurrentHashMap<>();
    /**
     * The meters of the databases that have meters of their own, by name: the open ones, and
     * the closed ones whose history stays. Changed under bindLock.
     */
    private final ConcurrentHashMap<String, DatabaseMeters> named = new ConcurrentHashMap<>();
    /** The meters the databases without meters of their own share; null under perDatabase. */
    private final DatabaseMeters shared;
    private final FoldedGauges folded;

    private final ReentrantLock bindLock = new ReentrantLock();
    // guarded by bindLock
    private final List<GaugeBinder.BoundGauge> runtimeGauges = new ArrayList<>(12);
    // guarded by bindLock
    private boolean sharedGaugesBound;
    // guarded by bindLock
    private boolean closed;

    private final ReentrantLock rankLock = new ReentrantLock();
    /** When the next ranking is due, in {@link System#nanoTime()} terms. */
    private volatile long nextRankAt;

    MeterDirectory(MeterRegistry registry, Tags commonTags, DatabaseTagging tagging,
            double[] percentiles, long foldRefreshNanos) {
        this.registry = registry;
        this.commonTags = commonTags;
        this.tagging = tagging;
        this.percentiles = percentiles;
        this.binder = new GaugeBinder(registry);
        this.ranking = tagging.kind() == DatabaseTagging.Kind.BUSIEST;
        this.rankPeriodNanos = tagging.period().toNanos();
        this.nextRankAt = System.nanoTime() + rankPeriodNanos;
        String sharedTag = tagging.sharedTag();
        this.shared = sharedTag == null ? null : newMeters(sharedTag);
        this.folded = new FoldedGauges(open.values(), shared, foldRefreshNanos);
    }

    private DatabaseMeters newMeters(String db) {
        return new DatabaseMeters(registry, commonTags, db, percentiles);
    }

    // ------------------------------------------------------------------ lifecycle

    void runtimeStarted(PoolGauges pool) {
        bindLock.lock();
        try {
            if (closed) {
                return;
            }
            if (!runtimeGauges.isEmpty()) {
                log.warn("a MicrometerMetrics serves one runtime, and a second one started with "
                        + "it; its pool gauges replace the first one's. Give each runtime its own "
                        + "MicrometerMetrics with distinct common tags");
                binder.unbind(runtimeGauges);
            }
            binder.bindRuntime(runtimeGauges, commonTags, pool, folded);
        } finally {
            bindLock.unlock();
        }
    }

    void databaseOpened(String db, DatabaseGauges gauges) {
        OpenDatabase entry = new OpenDatabase(db, gauges);
        bindLock.lock();
        try {
            // meters first: an event may find the entry as soon as it is in the map
            entry.meters = taggedAtOpen(db) ? named.computeIfAbsent(db, this::newMeters) : shared;
            OpenDatabase previous = open.put(db, entry);
            if (previous != null) {
                log.warn("{}: a database of this name opened again before the previous one "
                        + "closed; a MicrometerMetrics serves one runtime, so give each runtime "
                        + "its own with distinct common tags", db);
                if (previous.meters != shared) {
                    binder.unbind(previous.meters);
                }
            }
            if (closed) {
                return;
            }
            if (entry.meters == shared) {
                bindSharedGauges();
            } else {
                binder.bindDatabase(entry.meters, gauges);
            }
        } finally {
            bindLock.unlock();
        }
    }

    // guarded by bindLock
    private boolean taggedAtOpen(String db) {
        if (shared != null && db.equals(shared.db)) {
            return false; // a database named like the shared meters would merge into them
        }
        switch (tagging.kind()) {
            case PER_DATABASE:
                return true;
            case AGGREGATED:
                return false;
            case ALLOW_LIST:
                return tagging.allowed().contains(db);
            default:
                return named.containsKey(db) || named.size() < tagging.busiest();
        }
    }

    /** Binds the folded gauges of the shared meters, once a database counts in them. */
    // guarded by bindLock
    private void bindSharedGauges() {
        if (sharedGaugesBound || closed) {
            return;
        }
        sharedGaugesBound = true;
        binder.bindShared(shared, folded);
    }

    /** Drops a database that is gone: its gauges leave the registry, its entry this cache. */
    void forget(String db) {
        bindLock.lock();
        try {
            OpenDatabase entry = open.remove(db);
            if (entry == null) {
                return;
            }
            if (entry.meters != shared) {
                binder.unbind(entry.meters);
                if (tagging.kind() == DatabaseTagging.Kind.PER_DATABASE) {
                    // history stays in the registry; late events find it there (see meters())
                    named.remove(db, entry.meters);
                }
            }
        } finally {
            bindLock.unlock();
        }
    }

    /**
     * Removes every gauge: the runtime's, the open databases' and the shared ones. {@code
     * forever} (the binding's close) binds no more; otherwise a runtime started later with this
     * binding binds anew.
     */
    void unbindAll(boolean forever) {
        bindLock.lock();
        try {
            closed |= forever;
            binder.unbind(runtimeGauges);
            for (OpenDatabase entry : open.values()) {
                if (entry.meters != shared) {
                    binder.unbind(entry.meters);
                }
            }
            open.clear();
            if (shared != null) {
                binder.unbind(shared);
                sharedGaugesBound = false;
            }
        } finally {
            bindLock.unlock();
        }
    }

    // ------------------------------------------------------------------ events

    /**
     * The meters events of {@code db} count in. A database that did not open through this
     * binding (its open was reported to another one, or it already closed) counts in the
     * meters kept for its name, else in the shared ones; under perDatabase it gets meters looked
     * up in the registry each time, never cached, so late events cannot make a cache grow.
     */
    DatabaseMeters meters(String db) {
        OpenDatabase entry = open.get(db);
        if (entry != null) {
            return entry.meters;
        }
        DatabaseMeters meters = named.get(db);
        if (meters != null) {
            return meters;
        }
        return shared != null ? shared : newMeters(db);
    }

    /** {@link #meters}, for an event that counts as activity in the busiest ranking. */
    DatabaseMeters active(String db) {
        OpenDatabase entry = open.get(db);
        if (entry == null) {
            return meters(db);
        }
        if (ranking) {
            entry.activity.increment();
            if (System.nanoTime() - nextRankAt >= 0) {
                rankIfDue();
            }
        }
        return entry.meters;
    }

    // ------------------------------------------------------------------ busiest

    private void rankIfDue() {
        if (!rankLock.tryLock()) {
            return; // another thread ranks now
        }
        try {
            long now = System.nanoTime();
            if (now - nextRankAt < 0) {
                return;
            }
            nextRankAt = now + rankPeriodNanos;
            rankLocked();
        } catch (RuntimeException e) {
            log.warn("ranking the busiest databases failed; the tagged databases stay as they "
                    + "were", e);
        } finally {
            rankLock.unlock();
        }
    }

    /** Ranks the open databases now, whether or not a ranking is due. */
    void rank() {
        rankLock.lock();
        try {
            rankLocked();
        } finally {
            rankLock.unlock();
        }
    }

    /** Ranks the open databases once; see {@link DatabaseTagging#busiest(int, Duration)}. */
    // guarded by rankLock
    private void rankLocked() {
        List<OpenDatabase> entries = new ArrayList<>(open.size());
        for (OpenDatabase entry : open.values()) {
            entry.score = entry.score / 2 + entry.activity.sumThenReset();
            entry.rankedTagged = entry.meters != shared;
            entries.add(entry);
        }
        bindLock.lock();
        try {
            if (closed) {
                return;
            }
            // closed databases give their places up first
            for (Map.Entry<String, DatabaseMeters> e : named.entrySet()) {
                if (!open.containsKey(e.getKey())) {
                    named.remove(e.getKey(), e.getValue());
                    e.getValue().retire();
                }
            }
            BusiestRanking.Decision<OpenDatabase> decision =
                    BusiestRanking.rank(entries, tagging.busiest());
            for (OpenDatabase entry : decision.demote()) {
                if (open.get(entry.name) != entry || entry.meters == shared) {
                    continue; // it closed or changed meanwhile
                }
                DatabaseMeters own = entry.meters;
                binder.unbind(own);
                entry.meters = shared;
                named.remove(entry.name, own);
                own.retire();
                bindSharedGauges();
            }
            for (OpenDatabase entry : decision.promote()) {
                if (open.get(entry.name) != entry || entry.meters != shared
                        || entry.name.equals(shared.db)) {
                    continue;
                }
                DatabaseMeters own = named.computeIfAbsent(entry.name, this::newMeters);
                binder.bindDatabase(own, entry.gauges);
                entry.meters = own;
            }
        } finally {
            bindLock.unlock();
        }
    }

    /** The names of the databases that have meters of their own now (for tests). */
    Set<String> taggedDatabases() {
        Set<String> names = new TreeSet<>();
        for (OpenDatabase entry : open.values()) {
            if (entry.meters != shared) {
                names.add(entry.name);
            }
        }
        return names;
    }
}

package dev.lanes.micrometer;

import static dev.lanes.micrometer.MeterNames.*;

import dev.lanes.DatabaseState;
import dev.lanes.MetricsListener.DatabaseGauges;
import dev.lanes.MetricsListener.PoolGauges;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers and removes the gauges of one binding: the runtime's, a database's, and the folded
 * ones of the shared meters. A gauge is removed only by the binding that registered it, so a
 * newer binding under the same id (a database reopened, another runtime sharing the registry)
 * survives an older one's unbinding.
 *
 * <p>Concurrency: every method runs under {@link MeterDirectory}'s bind lock, which orders the
 * bindings and unbindings of one binding. {@link #GAUGE_OWNERS} is shared by every binding of
 * the JVM and its per-registry tables are concurrent maps, changed atomically per id, because
 * bindings of different runtimes (different bind locks) may share a registry.
 */
final class GaugeBinder {
    private static final Logger log = LoggerFactory.getLogger("dev.lanes.micrometer");

    /**
     * Which Lanes binding's gauge is registered under each id, per registry, across every
     * binding of this JVM: binding and unbinding look up only this table, in constant time,
     * where a registry search would scan every meter (quadratic when 100,000 databases open
     * under {@link DatabaseTagging#perDatabase()}). Weak keys: a registry that is gone takes its
     * table with it.
     */
    private static final Map<MeterRegistry, ConcurrentHashMap<Meter.Id, Gauge>> GAUGE_OWNERS =
            Collections.synchronizedMap(new WeakHashMap<>());

    /** A gauge this binding registered, with the id it was registered under (before filters). */
    record BoundGauge(Meter.Id key, Gauge gauge) {}

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Meter.Id, Gauge> owners;

    GaugeBinder(MeterRegistry registry) {
        this.registry = registry;
        this.owners = GAUGE_OWNERS.computeIfAbsent(registry, r -> new ConcurrentHashMap<>());
    }

    /** Binds the runtime's gauges: the pool's, the connections', and the databases by state. */
    void bindRuntime(List<BoundGauge> bound, Tags tags, PoolGauges pool, FoldedGauges folded) {
        bound.add(bind(POOL_THREADS, "Pool threads alive", tags, pool,
                p -> p.liveThreads(), "threads"));
        bound.add(bind(POOL_BUSY, "Pool threads running a turn", tags, pool,
                p -> p.busyThreads(), "threads"));
        bound.add(bind(POOL_RUNNABLE, "Databases waiting for a pool thread", tags, pool,
                p -> p.runnable(), null));
        bound.add(bind(POOL_MAX, "The cap on pool threads (maxThreads)", tags, pool,
                p -> reported(p.maxThreads()), "threads"));
        bound.add(bind(CONNECTIONS_OPEN, "SQLite connections open in the runtime", tags, pool,
                p -> reported(p.openConnections()), null));
        bound.add(bind(CONNECTIONS_BUDGET, "The connection budget (maxOpenConnections); NaN "
                + "without a cap", tags, pool,
                p -> p.connectionBudget() > 0 ? p.connectionBudget() : Double.NaN, null));
        for (DatabaseState state : FoldedGauges.COUNTED_STATES) {
            bound.add(bind(DATABASES, "Open databases by state", tags.and(STATE, lower(state)),
                    folded, f -> f.current().state(state), null));
        }
        bound.add(bind(DATABASES, "Open databases by state (poisoned: running with a poisoned "
                + "writer)", tags.and(STATE, "poisoned"), folded,
                f -> f.current().poisonedAll, null));
    }

    /** Binds the gauges of a database that has meters of its own. */
    void bindDatabase(DatabaseMeters meters, DatabaseGauges gauges) {
        Tags tags = meters.tags;
        meters.source = gauges; // the registry holds gauges weakly: keep the source reachable
        List<BoundGauge> bound = meters.gauges;
        bound.add(bind(QUEUE_DEPTH, "Writes waiting in the queue", tags, gauges,
                g -> g.queueDepth(), null));
        bound.add(bind(POISONED, "1 while the writer is poisoned and refuses work, else 0",
                tags, gauges, g -> g.writerPoisoned() ? 1 : 0, null));
        bound.add(bind(TRANSACTION_OPEN, "1 while an interactive transaction pins the writer, "
                + "else 0", tags, gauges, g -> g.transactionOpen() ? 1 : 0, null));
        bound.add(bind(WAL_SIZE, "Bytes of the -wal file", tags, gauges,
                g -> reported(g.walBytes()), "bytes"));
        bound.add(bind(READERS_ACTIVE, "Reader connections checked out by reads", tags,
                gauges, g -> reported(g.readersInUse()), null));
        bound.add(bind(READERS_WAITING, "Reads waiting for a reader connection", tags,
                gauges, g -> reported(g.readersWaiting()), null));
        bound.add(bind(DISK_FREE, "Free bytes on the database's volume, as the latest write "
                + "turn sampled them", tags, gauges, g -> reported(g.freeBytes()), "bytes"));
        bound.add(bind(DISK_RESERVE, "diskReserveBytes: writes are refused at or below it",
                tags, gauges, g -> reported(g.diskReserveBytes()), "bytes"));
    }

    /** Binds the folded gauges of the shared meters. */
    void bindShared(DatabaseMeters shared, FoldedGauges folded) {
        Tags tags = shared.tags;
        shared.source = folded;
        List<BoundGauge> bound = shared.gauges;
        bound.add(bind(QUEUE_DEPTH, "Writes waiting in the queue (sum)", tags, folded,
                f -> f.current().queueDepth, null));
        bound.add(bind(POISONED, "Databases whose writer is poisoned", tags, folded,
                f -> f.current().poisoned, null));
        bound.add(bind(TRANSACTION_OPEN, "Databases with an interactive transaction open",
                tags, folded, f -> f.current().transactionsOpen, null));
        bound.add(bind(WAL_SIZE, "Bytes of the largest -wal file", tags, folded,
                f -> f.current().walMax, "bytes"));
        bound.add(bind(READERS_ACTIVE, "Reader connections checked out by reads (sum)",
                tags, folded, f -> f.current().readersActive, null));
        bound.add(bind(READERS_WAITING, "Reads waiting for a reader connection (sum)",
                tags, folded, f -> f.current().readersWaiting, null));
        bound.add(bind(DISK_FREE, "Free bytes on the fullest volume", tags, folded,
                f -> f.current().freeMin, "bytes"));
        bound.add(bind(DISK_RESERVE, "The largest diskReserveBytes", tags, folded,
                f -> f.current().reserveMax, "bytes"));
    }

    private <T> BoundGauge bind(String name, String description, Tags tags, T source,
            ToDoubleFunction<T> value, String baseUnit) {
        Meter.Id id = new Meter.Id(name, tags, baseUnit, description, Meter.Type.GAUGE);
        Gauge previous = owners.get(id);
        if (previous != null) {
            // Same name and tags: a stale binding, or another runtime sharing the registry
            // without distinct common tags. The newest binding wins.
            log.warn("gauge {}{} was already registered; replacing it. Runtimes sharing a "
                    + "registry need distinct common tags", name, tags);
            registry.remove(previous);
        }
        // The registry holds the source weakly, so a gauge never keeps it reachable by itself.
        Gauge gauge = Gauge.builder(name, source, value)
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags)
                .register(registry);
        owners.put(id, gauge);
        return new BoundGauge(id, gauge);
    }

    /** Removes a database's or the shared meters' gauges and lets their source go. */
    void unbind(DatabaseMeters meters) {
        unbind(meters.gauges);
        meters.source = null;
    }

    /** Removes the gauges, unless a newer binding took their place; empties the list. */
    void unbind(List<BoundGauge> gauges) {
        for (BoundGauge bound : gauges) {
            // by identity: meters are equal when their ids are, whoever registered them
            boolean[] ours = new boolean[1];
            owners.computeIfPresent(bound.key(), (key, current) -> {
                ours[0] = current == bound.gauge();
                return ours[0] ? null : current;
            });
            if (ours[0]) {
                registry.remove(bound.gauge());
            }
        }
        gauges.clear();
    }
}

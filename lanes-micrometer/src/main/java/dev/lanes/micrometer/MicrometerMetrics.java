package dev.lanes.micrometer;

import dev.lanes.ErrorCode;
import dev.lanes.MetricsListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds the Lanes metrics SPI to Micrometer: install one per runtime with {@link
 * dev.lanes.Lanes.Builder#metrics(MetricsListener)} and the runtime's pool, writer lanes and
 * databases show up as meters of the given {@link MeterRegistry}.
 *
 * <pre>{@code
 * MeterRegistry registry = new SimpleMeterRegistry(); // or the application's registry
 * try (Lanes lanes = Lanes.builder()
 *         .metrics(new MicrometerMetrics(registry, Tags.of("app", "orders")))
 *         .build()) {
 *     Database db = lanes.open(Path.of("orders.db"));
 *     db.execute("INSERT INTO orders(item) VALUES (?)", "apple");
 *     // now lanes.command.duration{app=orders, db=orders.db, operation=write,
 *     //     in_transaction=true, statement_kind=insert, outcome=success} has counted one
 * }
 * }</pre>
 *
 * <h2>Meters</h2>
 * Every meter carries the common tags given to the constructor. Database meters also carry
 * {@code db}, the database's file name as the runtime names it in errors and logs (made unique
 * per runtime with a short hash suffix when two open databases share a file name).
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 * <tr><td>{@code lanes.pool.threads}</td><td>gauge</td><td></td>
 *     <td>pool threads alive</td></tr>
 * <tr><td>{@code lanes.pool.busy}</td><td>gauge</td><td></td>
 *     <td>pool threads running a turn</td></tr>
 * <tr><td>{@code lanes.pool.runnable}</td><td>gauge</td><td></td>
 *     <td>databases waiting for a pool thread</td></tr>
 * <tr><td>{@code lanes.writer.queue.depth}</td><td>gauge</td><td>db</td>
 *     <td>writes waiting in the queue</td></tr>
 * <tr><td>{@code lanes.writer.poisoned}</td><td>gauge</td><td>db</td>
 *     <td>1 while the writer refuses work after an unverifiable rollback, else 0</td></tr>
 * <tr><td>{@code lanes.transaction.open}</td><td>gauge</td><td>db</td>
 *     <td>1 while an interactive transaction pins the writer, else 0</td></tr>
 * <tr><td>{@code lanes.writer.queue.wait}</td><td>timer</td><td>db</td>
 *     <td>from a request's submission until its turn began</td></tr>
 * <tr><td>{@code lanes.command.duration}</td><td>timer</td><td>db, operation, in_transaction,
 *     statement_kind, outcome</td><td>one command's body or statement</td></tr>
 * <tr><td>{@code lanes.writer.group.size}</td><td>distribution summary</td><td>db</td>
 *     <td>writes committed by one transaction (group commit)</td></tr>
 * <tr><td>{@code lanes.writer.group.duration}</td><td>timer</td><td>db</td>
 *     <td>one group's transaction, from {@code BEGIN IMMEDIATE} to the end of {@code
 *     COMMIT}</td></tr>
 * <tr><td>{@code lanes.errors}</td><td>counter</td><td>db, code</td>
 *     <td>failed requests, by {@link ErrorCode}</td></tr>
 * <tr><td>{@code lanes.writer.overloads}</td><td>counter</td><td>db</td>
 *     <td>writes refused because the queue was full</td></tr>
 * <tr><td>{@code lanes.writer.slow}</td><td>counter</td><td>db</td>
 *     <td>slow-write warnings: turns with a write slower than {@code slowWriteThreshold}</td></tr>
 * <tr><td>{@code lanes.close.duration}</td><td>timer</td><td>db</td>
 *     <td>from the close request until the connections were closed</td></tr>
 * <tr><td>{@code lanes.close.timeouts}</td><td>counter</td><td>db</td>
 *     <td>{@code close()} calls that gave up waiting (the close went on)</td></tr>
 * <tr><td>{@code lanes.crashes}</td><td>counter</td><td>db</td>
 *     <td>turns that failed with an unexpected error (a defect)</td></tr>
 * <tr><td>{@code lanes.unclean.closes}</td><td>counter</td><td>db</td>
 *     <td>databases garbage-collected without {@code close()}</td></tr>
 * </table>
 * Tag values are lower case: {@code operation} is {@code write}, {@code read}, {@code
 * maintenance} or {@code transaction}; {@code in_transaction} is {@code true} or {@code false};
 * {@code statement_kind} is the statement's first keyword ({@code insert}, {@code select}, …),
 * {@code body} for a function body, or {@code other} for a keyword outside the SQL statements
 * SQLite knows (so malformed SQL cannot grow the number of series); {@code outcome} is {@code
 * success} or {@code failure}; {@code code} is the {@link ErrorCode} name ({@code write_failed},
 * {@code overloaded}, …). Timers publish no percentiles or histograms unless a {@link
 * io.micrometer.core.instrument.config.MeterFilter} of the registry turns them on; with very many
 * databases, a filter that drops or aggregates the {@code db} tag bounds the number of series.
 *
 * <h2>Lifetimes</h2>
 * The gauges of a database are bound when it opens and removed when its close completes (or when
 * it is found garbage-collected without close), so the registry never keeps a closed database
 * reachable. A close that timed out counts in {@code lanes.close.timeouts} and leaves the gauges
 * bound until the close really completes. Counters and timers stay in the registry after close:
 * they are history, and a database reopened under the same name goes on counting in them. The
 * pool gauges stay bound until {@link #close()}; the SPI does not report the end of a runtime.
 *
 * <p>One instance serves one runtime. Runtimes that share a registry need distinct common tags
 * (for instance {@code Tags.of("runtime", name)}): two databases with the same {@code db} and
 * the same common tags would share their gauges, and the newer binding wins (with a warning).
 *
 * <h2>Concurrency</h2>
 * The runtime calls this listener from many threads, often while a writer lane is held, so the
 * per-event paths take no lock and allocate nothing once their meters exist: the meters of a
 * database are looked up in {@link #databases} (a concurrent map) and in per-database meter
 * caches. Binding and unbinding gauges (database open and close, runtime start, {@link #close()})
 * happen under {@link #bindLock}, which guards {@link #poolGauges} and {@link #closed}, and
 * every change of a database's gauges.
 */
public final class MicrometerMetrics implements MetricsListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MicrometerMetrics.class);

    static final String POOL_THREADS = "lanes.pool.threads";
    static final String POOL_BUSY = "lanes.pool.busy";
    static final String POOL_RUNNABLE = "lanes.pool.runnable";
    static final String QUEUE_DEPTH = "lanes.writer.queue.depth";
    static final String POISONED = "lanes.writer.poisoned";
    static final String TRANSACTION_OPEN = "lanes.transaction.open";
    static final String QUEUE_WAIT = "lanes.writer.queue.wait";
    static final String COMMAND_DURATION = "lanes.command.duration";
    static final String GROUP_SIZE = "lanes.writer.group.size";
    static final String GROUP_DURATION = "lanes.writer.group.duration";
    static final String ERRORS = "lanes.errors";
    static final String OVERLOADS = "lanes.writer.overloads";
    static final String SLOW_WRITES = "lanes.writer.slow";
    static final String CLOSE_DURATION = "lanes.close.duration";
    static final String CLOSE_TIMEOUTS = "lanes.close.timeouts";
    static final String CRASHES = "lanes.crashes";
    static final String UNCLEAN_CLOSES = "lanes.unclean.closes";

    static final String DB = "db";
    static final String OPERATION = "operation";
    static final String IN_TRANSACTION = "in_transaction";
    static final String STATEMENT_KIND = "statement_kind";
    static final String OUTCOME = "outcome";
    static final String CODE = "code";

    /** The statement kinds that get a tag value of their own; everything else is "other". */
    private static final Map<String, String> STATEMENT_KINDS = statementKinds();
    private static final String OTHER_KIND = "other";

    private static final MetricsListener.Operation[] OPERATIONS =
            MetricsListener.Operation.values();
    private static final ErrorCode[] ERROR_CODES = ErrorCode.values();

    private final MeterRegistry registry;
    private final Tags commonTags;
    /** The meters of each database that opened through this listener and has not closed. */
    private final ConcurrentHashMap<String, DatabaseMeters> databases = new ConcurrentHashMap<>();

    private final ReentrantLock bindLock = new ReentrantLock();
    // guarded by bindLock
    private final List<Gauge> poolGauges = new ArrayList<>(3);
    // guarded by bindLock
    private boolean closed;

    /** Binds to {@code registry}, with no common tags. */
    public MicrometerMetrics(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * Binds to {@code registry}; every meter carries {@code commonTags} (for instance the
     * application's or the runtime's name).
     */
    public MicrometerMetrics(MeterRegistry registry, Iterable<Tag> commonTags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.commonTags = Tags.of(Objects.requireNonNull(commonTags, "commonTags"));
        for (Tag tag : this.commonTags) {
            if (isReserved(tag.getKey())) {
                throw new IllegalArgumentException("common tag '" + tag.getKey() + "' clashes with "
                        + "a tag the Lanes meters set themselves; rename it");
            }
        }
    }

    private static boolean isReserved(String key) {
        return key.equals(DB) || key.equals(OPERATION) || key.equals(IN_TRANSACTION)
                || key.equals(STATEMENT_KIND) || key.equals(OUTCOME) || key.equals(CODE);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void runtimeStarted(PoolGauges pool) {
        Objects.requireNonNull(pool, "pool");
        bindLock.lock();
        try {
            if (closed) {
                return;
            }
            if (!poolGauges.isEmpty()) {
                log.warn("a MicrometerMetrics serves one runtime, and a second one started with "
                        + "it; its pool gauges replace the first one's. Give each runtime its own "
                        + "MicrometerMetrics with distinct common tags");
                unbind(poolGauges);
            }
            poolGauges.add(bindGauge(POOL_THREADS, "Pool threads alive", commonTags, pool,
                    p -> p.liveThreads(), "threads"));
            poolGauges.add(bindGauge(POOL_BUSY, "Pool threads running a turn", commonTags, pool,
                    p -> p.busyThreads(), "threads"));
            poolGauges.add(bindGauge(POOL_RUNNABLE, "Databases waiting for a pool thread",
                    commonTags, pool, p -> p.runnable(), null));
        } finally {
            bindLock.unlock();
        }
    }

    @Override
    public void databaseOpened(String db, DatabaseGauges gauges) {
        Objects.requireNonNull(gauges, "gauges");
        DatabaseMeters meters = new DatabaseMeters(db);
        bindLock.lock();
        try {
            DatabaseMeters previous = databases.put(db, meters);
            if (previous != null) {
                log.warn("{}: a database of this name opened again before the previous one "
                        + "closed; a MicrometerMetrics serves one runtime, so give each runtime "
                        + "its own with distinct common tags", db);
                unbind(previous.gauges);
            }
            if (closed) {
                return;
            }
            Tags tags = meters.tags;
            meters.source = gauges; // the registry holds gauges weakly: keep the source reachable
            meters.gauges.add(bindGauge(QUEUE_DEPTH, "Writes waiting in the queue", tags, gauges,
                    g -> g.queueDepth(), null));
            meters.gauges.add(bindGauge(POISONED, "1 while the writer is poisoned and refuses "
                    + "work, else 0", tags, gauges, g -> g.writerPoisoned() ? 1 : 0, null));
            meters.gauges.add(bindGauge(TRANSACTION_OPEN, "1 while an interactive transaction "
                    + "pins the writer, else 0", tags, gauges, g -> g.transactionOpen() ? 1 : 0,
                    null));
        } finally {
            bindLock.unlock();
        }
    }

    @Override
    public void databaseClosed(String db, long nanos, boolean timedOut) {
        DatabaseMeters meters = meters(db);
        if (timedOut) {
            // close() gave up waiting, but the database is still closing: keep its gauges.
            meters.closeTimeouts.increment();
            return;
        }
        meters.closeDuration.record(nanos, TimeUnit.NANOSECONDS);
        forget(db, meters);
    }

    @Override
    public void uncleanClose(String db) {
        DatabaseMeters meters = meters(db);
        // Gauges go first: whoever sees the count also sees the database's gauges gone.
        forget(db, meters);
        meters.uncleanCloses.increment();
    }

    /**
     * Removes every gauge this binding registered (the pool's and the open databases') and binds
     * no more; counters and timers stay in the registry and keep counting. Call it once the
     * runtime is closed, when the registry outlives it.
     */
    @Override
    public void close() {
        bindLock.lock();
        try {
            closed = true;
            unbind(poolGauges);
            for (DatabaseMeters meters : databases.values()) {
                unbind(meters.gauges);
                meters.source = null;
            }
            databases.clear();
        } finally {
            bindLock.unlock();
        }
    }

    /** Drops a database that is gone: its gauges leave the registry, its meters this cache. */
    private void forget(String db, DatabaseMeters meters) {
        bindLock.lock();
        try {
            databases.remove(db, meters);
            unbind(meters.gauges);
            meters.source = null;
        } finally {
            bindLock.unlock();
        }
    }

    // ------------------------------------------------------------------ events

    @Override
    public void queueWait(String db, long nanos) {
        meters(db).queueWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void command(String db, Operation operation, boolean inTransaction,
            String statementKind, long nanos, boolean success) {
        meters(db).command(operation, inTransaction, statementKind, success)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void groupCommitted(String db, int size, long nanos) {
        DatabaseMeters meters = meters(db);
        meters.groupSize.record(size);
        meters.groupDuration.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void error(String db, ErrorCode code) {
        meters(db).error(code).increment();
    }

    @Override
    public void overload(String db) {
        meters(db).overloads.increment();
    }

    @Override
    public void crash(String db) {
        meters(db).crashes.increment();
    }

    @Override
    public void slowWrite(String db, Duration total) {
        meters(db).slowWrites.increment();
    }

    /**
     * The meters of {@code db}. A database that did not open through this listener (its open
     * was reported to another one, or it already closed) gets meters looked up in the registry
     * each time, never cached, so late events cannot make this cache grow.
     */
    private DatabaseMeters meters(String db) {
        DatabaseMeters meters = databases.get(db);
        return meters != null ? meters : new DatabaseMeters(db);
    }

    // ------------------------------------------------------------------ gauges

    // guarded by bindLock
    private <T> Gauge bindGauge(String name, String description, Tags tags, T source,
            ToDoubleFunction<T> value, String baseUnit) {
        for (Gauge existing : registry.find(name).tags(tags).gauges()) {
            if (Tags.of(existing.getId().getTags()).equals(tags)) {
                // Same name and tags: a stale binding, or another runtime sharing the registry
                // without distinct common tags. The newest binding wins.
                log.warn("gauge {}{} was already registered; replacing it. Runtimes sharing a "
                        + "registry need distinct common tags", name, tags);
                registry.remove(existing);
            }
        }
        // The registry holds the source weakly, so a gauge never keeps it reachable by itself.
        return Gauge.builder(name, source, value)
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags)
                .register(registry);
    }

    // guarded by bindLock: removes the gauges, unless a newer binding took their place
    private void unbind(List<Gauge> gauges) {
        for (Gauge gauge : gauges) {
            Meter.Id id = gauge.getId();
            for (Gauge current : registry.find(id.getName()).tags(id.getTags()).gauges()) {
                if (current == gauge) {
                    registry.remove(current);
                }
            }
        }
        gauges.clear();
    }

    // ------------------------------------------------------------------ per-database meters

    /** The meters of one database; every field is written once, before it is published. */
    private final class DatabaseMeters {
        final Tags tags;
        final Timer queueWait;
        final DistributionSummary groupSize;
        final Timer groupDuration;
        final Counter overloads;
        final Counter slowWrites;
        final Timer closeDuration;
        final Counter closeTimeouts;
        final Counter crashes;
        final Counter uncleanCloses;
        /** Error counters by {@link ErrorCode#ordinal()}, registered on first use. */
        final AtomicReferenceArray<Counter> errors = new AtomicReferenceArray<>(ERROR_CODES.length);
        /** Command timers by operation, in-transaction and outcome; then by statement kind. */
        final CommandTimers[] commands = new CommandTimers[OPERATIONS.length * 4];
        // guarded by bindLock
        final List<Gauge> gauges = new ArrayList<>(3);
        /** The gauges' source, held so that the registry's weak reference stays valid. */
        // guarded by bindLock
        DatabaseGauges source;

        DatabaseMeters(String db) {
            this.tags = commonTags.and(DB, db);
            queueWait = Timer.builder(QUEUE_WAIT)
                    .description("From a request's submission until its turn began")
                    .tags(tags).register(registry);
            groupSize = DistributionSummary.builder(GROUP_SIZE)
                    .description("Writes committed by one transaction (group commit)")
                    .baseUnit("writes").tags(tags).register(registry);
            groupDuration = Timer.builder(GROUP_DURATION)
                    .description("One group's transaction, from BEGIN IMMEDIATE to the end of "
                            + "COMMIT")
                    .tags(tags).register(registry);
            overloads = Counter.builder(OVERLOADS)
                    .description("Writes refused because the queue was full")
                    .tags(tags).register(registry);
            slowWrites = Counter.builder(SLOW_WRITES)
                    .description("Turns with a write slower than slowWriteThreshold (each logged "
                            + "one WARN)")
                    .tags(tags).register(registry);
            closeDuration = Timer.builder(CLOSE_DURATION)
                    .description("From the close request until the connections were closed")
                    .tags(tags).register(registry);
            closeTimeouts = Counter.builder(CLOSE_TIMEOUTS)
                    .description("close() calls that gave up waiting; the close went on")
                    .tags(tags).register(registry);
            crashes = Counter.builder(CRASHES)
                    .description("Turns that failed with an unexpected error (a defect)")
                    .tags(tags).register(registry);
            uncleanCloses = Counter.builder(UNCLEAN_CLOSES)
                    .description("Databases garbage-collected without close()")
                    .tags(tags).register(registry);
            for (int op = 0; op < OPERATIONS.length; op++) {
                for (int inTx = 0; inTx < 2; inTx++) {
                    for (int ok = 0; ok < 2; ok++) {
                        commands[(op * 2 + inTx) * 2 + ok] = new CommandTimers(tags.and(
                                OPERATION, OPERATIONS[op].name().toLowerCase(Locale.ROOT),
                                IN_TRANSACTION, inTx == 1 ? "true" : "false",
                                OUTCOME, ok == 1 ? "success" : "failure"));
                    }
                }
            }
        }

        Timer command(Operation operation, boolean inTransaction, String statementKind,
                boolean success) {
            int slot = (operation.ordinal() * 2 + (inTransaction ? 1 : 0)) * 2 + (success ? 1 : 0);
            return commands[slot].timer(statementKind);
        }

        Counter error(ErrorCode code) {
            Counter counter = errors.get(code.ordinal());
            if (counter == null) {
                // Registration is idempotent: racing threads get the same counter.
                counter = Counter.builder(ERRORS)
                        .description("Failed requests, by error code")
                        .tags(tags).tag(CODE, code.name().toLowerCase(Locale.ROOT))
                        .register(registry);
                errors.set(code.ordinal(), counter);
            }
            return counter;
        }
    }

    /** The command timers of one (operation, in-transaction, outcome), by statement kind. */
    private final class CommandTimers {
        final Tags tags;
        /** By tag value, so bounded by {@link #STATEMENT_KINDS} and "other". */
        final ConcurrentHashMap<String, Timer> byKind = new ConcurrentHashMap<>();

        CommandTimers(Tags tags) {
            this.tags = tags;
        }

        Timer timer(String statementKind) {
            String kind = kindTag(statementKind);
            Timer timer = byKind.get(kind);
            if (timer != null) {
                return timer;
            }
            return byKind.computeIfAbsent(kind, k -> Timer.builder(COMMAND_DURATION)
                    .description("One command's body or statement")
                    .tags(tags).tag(STATEMENT_KIND, k)
                    .register(registry));
        }
    }

    /**
     * The tag value of a statement kind as the runtime reports it ({@code INSERT}, {@code BODY}):
     * its lower-case form when it is a statement SQLite knows, else {@code other}. Allocates
     * nothing for the upper-case keywords the runtime reports.
     */
    static String kindTag(String statementKind) {
        if (statementKind == null) {
            return OTHER_KIND;
        }
        String kind = STATEMENT_KINDS.get(statementKind);
        if (kind == null) {
            kind = STATEMENT_KINDS.get(statementKind.toUpperCase(Locale.ROOT));
        }
        return kind != null ? kind : OTHER_KIND;
    }

    private static Map<String, String> statementKinds() {
        Map<String, String> kinds = new HashMap<>();
        for (String keyword : new String[] {"BODY", "SELECT", "VALUES", "WITH", "INSERT", "REPLACE",
                "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "PRAGMA", "VACUUM", "ANALYZE",
                "REINDEX", "ATTACH", "DETACH", "EXPLAIN", "BEGIN", "COMMIT", "END", "ROLLBACK",
                "SAVEPOINT", "RELEASE"}) {
            kinds.put(keyword, keyword.toLowerCase(Locale.ROOT));
        }
        return Map.copyOf(kinds);
    }
}

package dev.lanes.micrometer;

import dev.lanes.DatabaseState;
import dev.lanes.ErrorCode;
import dev.lanes.MetricsListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds the Lanes metrics SPI to Micrometer: install one per runtime with {@link
 * dev.lanes.Lanes.Builder#metrics(MetricsListener)} and the runtime's pool, writer lanes and
 * databases show up as meters of the given {@link MeterRegistry}; given an {@link
 * ObservationRegistry}, every request is also an {@link Observation} (a trace span).
 *
 * <pre>{@code
 * MeterRegistry registry = new SimpleMeterRegistry(); // or the application's registry
 * try (Lanes lanes = Lanes.builder()
 *         .metrics(MicrometerMetrics.builder(registry)
 *                 .tags(Tags.of("app", "orders"))
 *                 .tagging(DatabaseTagging.busiest(5))       // the default
 *                 .observations(observationRegistry)         // optional: tracing
 *                 .build())
 *         .build()) {
 *     Database db = lanes.open(Path.of("orders.db"));
 *     db.execute("INSERT INTO orders(item) VALUES (?)", "apple");
 *     // now lanes.command.duration{app=orders, db=orders.db, operation=write,
 *     //     in_transaction=true, statement_kind=insert, outcome=success} has counted one
 * }
 * }</pre>
 *
 * <h2>Meters</h2>
 * Every meter carries the common tags given to the builder. Database meters also carry {@code
 * db}: the database's file name as the runtime names it in errors and logs (made unique per
 * runtime with a short hash suffix when two open databases share a file name), or, for the
 * databases the {@link DatabaseTagging} policy gives no meters of their own, {@code _other}
 * ({@code _all} under {@link DatabaseTagging#aggregated()}). The gauges of {@code _other} and
 * {@code _all} fold the databases they stand for as the last column says. Prometheus names add
 * the unit and suffixes: {@code lanes.wal.size} is {@code lanes_wal_size_bytes}, the timer {@code
 * lanes.request.duration} is {@code lanes_request_duration_seconds_count}, {@code _sum}, {@code
 * _max} and, with a percentile, {@code lanes_request_duration_seconds{quantile="0.99"}}.
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>what</th><th>folded</th></tr>
 * <tr><td>{@code lanes.pool.threads}</td><td>gauge</td><td></td>
 *     <td>pool threads alive</td><td></td></tr>
 * <tr><td>{@code lanes.pool.busy}</td><td>gauge</td><td></td>
 *     <td>pool threads running a turn</td><td></td></tr>
 * <tr><td>{@code lanes.pool.runnable}</td><td>gauge</td><td></td>
 *     <td>databases waiting for a pool thread</td><td></td></tr>
 * <tr><td>{@code lanes.pool.max}</td><td>gauge</td><td></td>
 *     <td>the cap on pool threads ({@code maxThreads})</td><td></td></tr>
 * <tr><td>{@code lanes.connections.open}</td><td>gauge</td><td></td>
 *     <td>SQLite connections open in the runtime</td><td></td></tr>
 * <tr><td>{@code lanes.connections.budget}</td><td>gauge</td><td></td>
 *     <td>{@code maxOpenConnections}; NaN when there is no cap</td><td></td></tr>
 * <tr><td>{@code lanes.connections.evictions}</td><td>counter</td><td></td>
 *     <td>idle databases whose connections the budget closed</td><td></td></tr>
 * <tr><td>{@code lanes.connections.reopen}</td><td>timer</td><td></td>
 *     <td>an evicted database reopening its writer connection</td><td></td></tr>
 * <tr><td>{@code lanes.databases}</td><td>gauge</td><td>state</td>
 *     <td>open databases by state: {@code running}, {@code closing}, {@code dead}, and {@code
 *     poisoned} (running with a poisoned writer, counted in {@code running} too)</td>
 *     <td></td></tr>
 * <tr><td>{@code lanes.writer.queue.depth}</td><td>gauge</td><td>db</td>
 *     <td>writes waiting in the queue</td><td>sum</td></tr>
 * <tr><td>{@code lanes.writer.poisoned}</td><td>gauge</td><td>db</td>
 *     <td>1 while the writer refuses work after an unverifiable rollback, else 0</td>
 *     <td>sum (how many)</td></tr>
 * <tr><td>{@code lanes.transaction.open}</td><td>gauge</td><td>db</td>
 *     <td>1 while an interactive transaction pins the writer, else 0</td>
 *     <td>sum (how many)</td></tr>
 * <tr><td>{@code lanes.wal.size}</td><td>gauge</td><td>db</td>
 *     <td>bytes of the {@code -wal} file</td><td>max</td></tr>
 * <tr><td>{@code lanes.readers.active}</td><td>gauge</td><td>db</td>
 *     <td>reader connections checked out by reads</td><td>sum</td></tr>
 * <tr><td>{@code lanes.readers.waiting}</td><td>gauge</td><td>db</td>
 *     <td>reads waiting for a reader connection</td><td>sum</td></tr>
 * <tr><td>{@code lanes.disk.free}</td><td>gauge</td><td>db</td>
 *     <td>free bytes on the volume, as the latest write turn sampled them</td><td>min</td></tr>
 * <tr><td>{@code lanes.disk.reserve}</td><td>gauge</td><td>db</td>
 *     <td>{@code diskReserveBytes}: writes are refused at or below it</td><td>max</td></tr>
 * <tr><td>{@code lanes.request.duration}</td><td>timer, p99</td><td>db, operation,
 *     outcome</td><td>a request from submission to its outcome; {@code operation=transaction}
 *     is an interactive transaction from {@code begin()} to the end of its commit or
 *     rollback</td><td></td></tr>
 * <tr><td>{@code lanes.writer.replays}</td><td>counter</td><td>db</td>
 *     <td>requests whose body ran again after a neighbour ended their group's
 *     transaction</td><td></td></tr>
 * <tr><td>{@code lanes.writer.queue.wait}</td><td>timer, p99</td><td>db</td>
 *     <td>from a request's submission until its turn began</td><td></td></tr>
 * <tr><td>{@code lanes.command.duration}</td><td>timer</td><td>db, operation, in_transaction,
 *     statement_kind, outcome</td><td>one command's body or statement</td><td></td></tr>
 * <tr><td>{@code lanes.writer.group.size}</td><td>distribution summary</td><td>db</td>
 *     <td>writes committed by one transaction (group commit)</td><td></td></tr>
 * <tr><td>{@code lanes.writer.group.duration}</td><td>timer</td><td>db</td>
 *     <td>one group's transaction, from {@code BEGIN IMMEDIATE} to the end of {@code
 *     COMMIT}</td><td></td></tr>
 * <tr><td>{@code lanes.reader.wait}</td><td>timer, p99</td><td>db, outcome</td>
 *     <td>a read's wait for a reader connection; {@code outcome} {@code acquired} or {@code
 *     not_acquired}</td><td></td></tr>
 * <tr><td>{@code lanes.checkpoint.duration}</td><td>timer</td><td>db, mode, trigger,
 *     result</td><td>one {@code PRAGMA wal_checkpoint}; {@code mode} {@code passive}, {@code
 *     restart}, {@code truncate}; {@code trigger} {@code auto}, {@code dedicated}, {@code
 *     manual}; {@code result} {@code complete}, {@code partial} (frames left), {@code busy},
 *     {@code failed}</td><td></td></tr>
 * <tr><td>{@code lanes.checkpoint.pages}</td><td>distribution summary</td><td>db, mode,
 *     trigger</td><td>WAL frames in the database file after a checkpoint</td><td></td></tr>
 * <tr><td>{@code lanes.checkpoint.backlog}</td><td>distribution summary</td><td>db, mode,
 *     trigger</td><td>WAL frames a checkpoint left behind</td><td></td></tr>
 * <tr><td>{@code lanes.disk.floor.refusals}</td><td>counter</td><td>db</td>
 *     <td>write turns refused at the disk reserve</td><td></td></tr>
 * <tr><td>{@code lanes.change.lag}</td><td>timer</td><td>db</td>
 *     <td>from a commit until its change notification reached a subscriber</td><td></td></tr>
 * <tr><td>{@code lanes.errors}</td><td>counter</td><td>db, code</td>
 *     <td>failed requests, by {@link ErrorCode}</td><td></td></tr>
 * <tr><td>{@code lanes.writer.overloads}</td><td>counter</td><td>db</td>
 *     <td>writes refused because the queue was full</td><td></td></tr>
 * <tr><td>{@code lanes.writer.slow}</td><td>counter</td><td>db</td>
 *     <td>slow-write warnings: turns with a write slower than {@code slowWriteThreshold}</td>
 *     <td></td></tr>
 * <tr><td>{@code lanes.close.duration}</td><td>timer</td><td>db</td>
 *     <td>from the close request until the connections were closed</td><td></td></tr>
 * <tr><td>{@code lanes.close.timeouts}</td><td>counter</td><td>db</td>
 *     <td>{@code close()} calls that gave up waiting (the close went on)</td><td></td></tr>
 * <tr><td>{@code lanes.crashes}</td><td>counter</td><td>db</td>
 *     <td>turns that failed with an unexpected error (a defect)</td><td></td></tr>
 * <tr><td>{@code lanes.unclean.closes}</td><td>counter</td><td>db</td>
 *     <td>databases garbage-collected without {@code close()}</td><td></td></tr>
 * </table>
 * Tag values are lower case: {@code operation} is {@code write}, {@code read}, {@code
 * maintenance} or {@code transaction}; {@code in_transaction} is {@code true} or {@code false};
 * {@code statement_kind} is the statement's first keyword ({@code insert}, {@code select}, …),
 * {@code body} for a function body, or {@code other} for a keyword outside the SQL statements
 * SQLite knows (so malformed SQL cannot grow the number of series); {@code outcome} of a command
 * or read is {@code success} or {@code failure}, of a write, maintenance request or transaction
 * {@code committed}, {@code rolled_back}, {@code not_started} or {@code unknown}; {@code code}
 * is the {@link ErrorCode} name ({@code write_failed}, {@code overloaded}, …). A gauge whose
 * value the runtime does not report (an older core) reads NaN. The three timers marked p99
 * publish that percentile ({@link Builder#percentiles(double...)}); no timer publishes a
 * histogram unless a {@link io.micrometer.core.instrument.config.MeterFilter} of the registry
 * turns one on. The counters and timers registered on first use appear with their first event;
 * the rest exist from the database's open.
 *
 * <h2>Cardinality</h2>
 * The default policy, {@link DatabaseTagging#busiest(int) busiest(5)}, tags a runtime's first
 * five databases by name and, once there are more, the five busiest; the others count in {@code
 * db="_other"}. So a runtime of 100,000 databases publishes the meters of at most six {@code db}
 * values, a few hundred series, where {@link DatabaseTagging#perDatabase()} (the behaviour of
 * the constructors before the policies existed, and still available) publishes tens of series
 * per database. The constructors use the default policy too.
 *
 * <h2>Lifetimes</h2>
 * The gauges of a database are bound when it opens (or gets meters of its own) and removed when
 * its close completes (or when it is found garbage-collected without close, or when it loses
 * its meters of its own), so the registry never keeps a closed database reachable. A close that
 * timed out counts in {@code lanes.close.timeouts} and leaves the gauges bound until the close
 * really completes. Under {@code perDatabase} and {@code allowList}, counters and timers stay in
 * the registry after close: they are history, and a database reopened under the same name goes
 * on counting in them. Under {@code busiest}, a closed database's meters stay until the next
 * ranking gives its place away, then leave the registry. The runtime-level gauges, and those
 * of the shared meters, stay bound until the runtime closes ({@link #runtimeClosed()}) or
 * {@link #close()}.
 *
 * <p>One instance serves one runtime. Runtimes that share a registry need distinct common tags
 * (for instance {@code Tags.of("runtime", name)}): two databases with the same {@code db} and
 * the same common tags would share their gauges, and the newer binding wins (with a warning).
 *
 * <h2>Observations</h2>
 * With {@link Builder#observations(ObservationRegistry)}, {@link #requestStarted} starts an
 * observation named {@value DefaultLanesObservationConvention#NAME} on the submitting thread
 * (so its parent is that thread's current observation) and {@link #requestCompleted} stops it
 * with the outcome; {@link DefaultLanesObservationConvention} lists the key values. Without it,
 * {@code requestStarted} returns {@code null} and nothing is allocated.
 *
 * <h2>Concurrency</h2>
 * The runtime calls this listener from many threads, often while a writer lane is held, so the
 * per-event paths take no lock and allocate nothing once their meters exist: a database's
 * entry is looked up in {@link #open} (a concurrent map) and its current meters read from the
 * entry's volatile field. Binding and unbinding gauges (database open and close, runtime start,
 * ranking, {@link #close()}) happen under {@link #bindLock}, which guards {@link #runtimeGauges},
 * {@link #sharedGaugesBound}, {@link #closed}, every change of {@link #open} and {@link #named},
 * and every entry's meters. Ranking runs under {@link #rankLock}, taken with {@code tryLock} by
 * the first event after {@link #nextRankAt}, so no event ever waits for a ranking; ranking takes
 * {@code bindLock} inside {@code rankLock}, never the reverse. Folded gauges and state counts
 * read one {@link Fold} snapshot of the open databases, computed at most once per {@link
 * #foldRefreshNanos} under {@link #foldLock} (also {@code tryLock}: a reader that loses the race
 * reads the previous snapshot).
 */
public final class MicrometerMetrics implements MetricsListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MicrometerMetrics.class);

    static final String POOL_THREADS = "lanes.pool.threads";
    static final String POOL_BUSY = "lanes.pool.busy";
    static final String POOL_RUNNABLE = "lanes.pool.runnable";
    static final String POOL_MAX = "lanes.pool.max";
    static final String CONNECTIONS_OPEN = "lanes.connections.open";
    static final String CONNECTIONS_BUDGET = "lanes.connections.budget";
    static final String EVICTIONS = "lanes.connections.evictions";
    static final String REOPEN = "lanes.connections.reopen";
    static final String DATABASES = "lanes.databases";
    static final String QUEUE_DEPTH = "lanes.writer.queue.depth";
    static final String POISONED = "lanes.writer.poisoned";
    static final String TRANSACTION_OPEN = "lanes.transaction.open";
    static final String WAL_SIZE = "lanes.wal.size";
    static final String READERS_ACTIVE = "lanes.readers.active";
    static final String READERS_WAITING = "lanes.readers.waiting";
    static final String DISK_FREE = "lanes.disk.free";
    static final String DISK_RESERVE = "lanes.disk.reserve";
    static final String REQUEST_DURATION = "lanes.request.duration";
    static final String REPLAYS_COUNTER = "lanes.writer.replays";
    static final String QUEUE_WAIT = "lanes.writer.queue.wait";
    static final String COMMAND_DURATION = "lanes.command.duration";
    static final String GROUP_SIZE = "lanes.writer.group.size";
    static final String GROUP_DURATION = "lanes.writer.group.duration";
    static final String READER_WAIT = "lanes.reader.wait";
    static final String CHECKPOINT_DURATION = "lanes.checkpoint.duration";
    static final String CHECKPOINT_PAGES = "lanes.checkpoint.pages";
    static final String CHECKPOINT_BACKLOG = "lanes.checkpoint.backlog";
    static final String DISK_FLOOR_REFUSALS = "lanes.disk.floor.refusals";
    static final String CHANGE_LAG_TIMER = "lanes.change.lag";
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
    static final String STATE = "state";
    static final String MODE = "mode";
    static final String TRIGGER = "trigger";
    static final String RESULT = "result";

    /** The statement kinds that get a tag value of their own; everything else is "other". */
    private static final Map<String, String> STATEMENT_KINDS = statementKinds();
    private static final String OTHER_KIND = "other";
    /** The states {@code lanes.databases} counts, and the extra {@code poisoned}. */
    private static final DatabaseState[] COUNTED_STATES =
            {DatabaseState.RUNNING, DatabaseState.CLOSING, DatabaseState.DEAD};

    private final MeterRegistry registry;
    private final Tags commonTags;
    private final DatabaseTagging tagging;
    private final double[] percentiles;
    private final ObservationRegistry observations;
    private final LanesObservationConvention observationConvention;
    private final long foldRefreshNanos;
    private final boolean ranking;
    private final long rankPeriodNanos;

    /** The databases that opened through this listener and have not closed. */
    private final ConcurrentHashMap<String, Entry> open = new ConcurrentHashMap<>();
    /**
     * The meters of the databases that have meters of their own, by name: the open ones, and
     * the closed ones whose history stays (see the class comment). Changed under bindLock.
     */
    private final ConcurrentHashMap<String, DatabaseMeters> named = new ConcurrentHashMap<>();
    /** The meters the databases without meters of their own share; null under perDatabase. */
    private final DatabaseMeters shared;

    private final Counter evictions;
    private final Timer reopens;

    private final ReentrantLock bindLock = new ReentrantLock();
    // guarded by bindLock
    private final List<BoundGauge> runtimeGauges = new ArrayList<>(12);
    // guarded by bindLock
    private boolean sharedGaugesBound;
    // guarded by bindLock
    private boolean closed;

    private final ReentrantLock rankLock = new ReentrantLock();
    /** When the next ranking is due, in {@link System#nanoTime()} terms. */
    private volatile long nextRankAt;

    private final ReentrantLock foldLock = new ReentrantLock();
    private volatile Fold fold;

    /** Binds to {@code registry}, with no common tags and the default tagging policy. */
    public MicrometerMetrics(MeterRegistry registry) {
        this(builder(registry));
    }

    /**
     * Binds to {@code registry}; every meter carries {@code commonTags} (for instance the
     * application's or the runtime's name). Uses the default tagging policy, {@link
     * DatabaseTagging#busiest(int) busiest(5)}: before tagging policies existed these
     * constructors tagged every database, which {@code builder(registry).tagging(
     * DatabaseTagging.perDatabase())} still does.
     */
    public MicrometerMetrics(MeterRegistry registry, Iterable<Tag> commonTags) {
        this(builder(registry).tags(commonTags));
    }

    private MicrometerMetrics(Builder b) {
        this.registry = b.registry;
        this.gaugeOwners = GAUGE_OWNERS.computeIfAbsent(registry, r -> new ConcurrentHashMap<>());
        this.commonTags = b.tags;
        this.tagging = b.tagging;
        this.percentiles = b.percentiles.clone();
        this.observations = b.observations;
        this.observationConvention = b.convention;
        this.foldRefreshNanos = b.foldRefresh.toNanos();
        this.ranking = tagging.kind() == DatabaseTagging.Kind.BUSIEST;
        this.rankPeriodNanos = tagging.period().toNanos();
        this.nextRankAt = System.nanoTime() + rankPeriodNanos;
        String sharedTag = tagging.sharedTag();
        this.shared = sharedTag == null ? null
                : new DatabaseMeters(registry, commonTags, sharedTag, percentiles);
        this.evictions = Counter.builder(EVICTIONS)
                .description("Idle databases whose connections the connection budget closed")
                .tags(commonTags).register(registry);
        this.reopens = Timer.builder(REOPEN)
                .description("An evicted database reopening its writer connection")
                .tags(commonTags).register(registry);
    }

    /** A builder binding to {@code registry}. */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    /** Configures a {@link MicrometerMetrics}; every setter checks its argument at once. */
    public static final class Builder {
        private final MeterRegistry registry;
        private Tags tags = Tags.empty();
        private DatabaseTagging tagging = DatabaseTagging.busiest(DatabaseTagging.DEFAULT_BUSIEST);
        private double[] percentiles = {0.99};
        private ObservationRegistry observations;
        private LanesObservationConvention convention;
        private Duration foldRefresh = Duration.ofSeconds(1);

        private Builder(MeterRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /**
         * Tags every meter carries (for instance the application's or the runtime's name).
         *
         * @throws IllegalArgumentException when a key is one the meters set themselves
         */
        public Builder tags(Iterable<Tag> commonTags) {
            Tags t = Tags.of(Objects.requireNonNull(commonTags, "commonTags"));
            for (Tag tag : t) {
                if (isReserved(tag.getKey())) {
                    throw new IllegalArgumentException("common tag '" + tag.getKey() + "' clashes "
                            + "with a tag the Lanes meters set themselves; rename it");
                }
            }
            this.tags = t;
            return this;
        }

        /** Which databases get meters of their own; default {@code busiest(5)}. */
        public Builder tagging(DatabaseTagging tagging) {
            this.tagging = Objects.requireNonNull(tagging, "tagging");
            return this;
        }

        /**
         * The percentiles that {@code lanes.request.duration}, {@code lanes.writer.queue.wait}
         * and {@code lanes.reader.wait} publish (default 0.99; none to publish none). Each costs
         * a small time-windowed histogram in memory per timer, so with {@link
         * DatabaseTagging#perDatabase()} and many databases, consider none.
         *
         * @throws IllegalArgumentException when one is not between 0 and 1
         */
        public Builder percentiles(double... percentiles) {
            for (double p : percentiles) {
                if (!(p >= 0 && p <= 1)) {
                    throw new IllegalArgumentException("percentiles: " + p
                            + " is not between 0 and 1 (0.99 is the 99th percentile)");
                }
            }
            this.percentiles = percentiles.clone();
            return this;
        }

        /**
         * Observes every request in {@code registry} (tracing): off unless given. See {@link
         * DefaultLanesObservationConvention}.
         */
        public Builder observations(ObservationRegistry registry) {
            this.observations = Objects.requireNonNull(registry, "observations");
            return this;
        }

        /** A convention for the observations instead of {@link DefaultLanesObservationConvention}. */
        public Builder observationConvention(LanesObservationConvention convention) {
            this.convention = Objects.requireNonNull(convention, "convention");
            return this;
        }

        /**
         * How long the folded gauges and state counts reuse one scan of the open databases
         * (default 1 s): a scrape reads many gauges, and at 100,000 databases each scan costs
         * milliseconds. For tests, zero scans at every read.
         */
        Builder foldRefresh(Duration refresh) {
            this.foldRefresh = Objects.requireNonNull(refresh, "refresh");
            return this;
        }

        public MicrometerMetrics build() {
            return new MicrometerMetrics(this);
        }
    }

    private static boolean isReserved(String key) {
        return key.equals(DB) || key.equals(OPERATION) || key.equals(IN_TRANSACTION)
                || key.equals(STATEMENT_KIND) || key.equals(OUTCOME) || key.equals(CODE)
                || key.equals(STATE) || key.equals(MODE) || key.equals(TRIGGER)
                || key.equals(RESULT);
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
            if (!runtimeGauges.isEmpty()) {
                log.warn("a MicrometerMetrics serves one runtime, and a second one started with "
                        + "it; its pool gauges replace the first one's. Give each runtime its own "
                        + "MicrometerMetrics with distinct common tags");
                unbind(runtimeGauges);
            }
            runtimeGauges.add(bindGauge(POOL_THREADS, "Pool threads alive", commonTags, pool,
                    p -> p.liveThreads(), "threads"));
            runtimeGauges.add(bindGauge(POOL_BUSY, "Pool threads running a turn", commonTags,
                    pool, p -> p.busyThreads(), "threads"));
            runtimeGauges.add(bindGauge(POOL_RUNNABLE, "Databases waiting for a pool thread",
                    commonTags, pool, p -> p.runnable(), null));
            runtimeGauges.add(bindGauge(POOL_MAX, "The cap on pool threads (maxThreads)",
                    commonTags, pool, p -> reported(p.maxThreads()), "threads"));
            runtimeGauges.add(bindGauge(CONNECTIONS_OPEN, "SQLite connections open in the "
                    + "runtime", commonTags, pool, p -> reported(p.openConnections()),
                    null));
            runtimeGauges.add(bindGauge(CONNECTIONS_BUDGET, "The connection budget "
                    + "(maxOpenConnections); NaN without a cap", commonTags, pool,
                    p -> p.connectionBudget() > 0 ? p.connectionBudget() : Double.NaN,
                    null));
            for (DatabaseState state : COUNTED_STATES) {
                runtimeGauges.add(bindGauge(DATABASES, "Open databases by state",
                        commonTags.and(STATE, DatabaseMeters.lower(state)), this,
                        m -> m.fold().state(state), null));
            }
            runtimeGauges.add(bindGauge(DATABASES, "Open databases by state (poisoned: running "
                    + "with a poisoned writer)", commonTags.and(STATE, "poisoned"), this,
                    m -> m.fold().poisonedAll, null));
        } finally {
            bindLock.unlock();
        }
    }

    @Override
    public void databaseOpened(String db, DatabaseGauges gauges) {
        Objects.requireNonNull(gauges, "gauges");
        Entry entry = new Entry(db, gauges);
        bindLock.lock();
        try {
            // meters first: an event may find the entry as soon as it is in the map
            if (taggedAtOpen(db)) {
                entry.meters = named.computeIfAbsent(db,
                        n -> new DatabaseMeters(registry, commonTags, n, percentiles));
            } else {
                entry.meters = shared;
            }
            Entry previous = open.put(db, entry);
            if (previous != null) {
                log.warn("{}: a database of this name opened again before the previous one "
                        + "closed; a MicrometerMetrics serves one runtime, so give each runtime "
                        + "its own with distinct common tags", db);
                if (previous.meters != shared) {
                    unbind(previous.meters);
                }
            }
            if (closed) {
                return;
            }
            if (entry.meters == shared) {
                bindSharedGauges();
            } else {
                bindDatabaseGauges(entry.meters, gauges);
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

    @Override
    public void databaseClosed(String db, long nanos, boolean timedOut) {
        DatabaseMeters meters = meters(db);
        if (timedOut) {
            // close() gave up waiting, but the database is still closing: keep its gauges.
            meters.closeTimeouts.increment();
            return;
        }
        meters.closeDuration.record(nanos, TimeUnit.NANOSECONDS);
        forget(db);
    }

    @Override
    public void uncleanClose(String db) {
        DatabaseMeters meters = meters(db);
        // Gauges go first: whoever sees the count also sees the database's gauges gone.
        forget(db);
        meters.uncleanCloses.increment();
    }

    /**
     * The runtime closed (after its databases): its gauges leave the registry, the shared ones
     * included; counters and timers stay. A runtime started later with this binding binds anew.
     */
    @Override
    public void runtimeClosed() {
        bindLock.lock();
        try {
            unbind(runtimeGauges);
            for (Entry entry : open.values()) {
                if (entry.meters != shared) {
                    unbind(entry.meters);
                }
            }
            open.clear();
            if (shared != null) {
                unbind(shared);
                sharedGaugesBound = false;
            }
        } finally {
            bindLock.unlock();
        }
    }

    /**
     * Removes every gauge this binding registered (the runtime's and the open databases') and
     * binds no more; counters and timers stay in the registry and keep counting. Call it once
     * the runtime is closed, when the registry outlives it.
     */
    @Override
    public void close() {
        bindLock.lock();
        try {
            closed = true;
            unbind(runtimeGauges);
            for (Entry entry : open.values()) {
                if (entry.meters != shared) {
                    unbind(entry.meters);
                }
            }
            if (shared != null) {
                unbind(shared);
            }
            open.clear();
        } finally {
            bindLock.unlock();
        }
    }

    /** Drops a database that is gone: its gauges leave the registry, its entry this cache. */
    private void forget(String db) {
        bindLock.lock();
        try {
            Entry entry = open.remove(db);
            if (entry == null) {
                return;
            }
            if (entry.meters != shared) {
                unbind(entry.meters);
                if (tagging.kind() == DatabaseTagging.Kind.PER_DATABASE) {
                    // history stays in the registry; late events find it there (see meters())
                    named.remove(db, entry.meters);
                }
            }
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
        active(db).command(operation, inTransaction, statementKind, success)
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

    @Override
    public Object requestStarted(String db, Operation operation, String label) {
        ObservationRegistry observationRegistry = observations;
        if (observationRegistry == null || observationRegistry.isNoop()) {
            return null;
        }
        Observation observation = Observation.createNotStarted(observationConvention,
                DefaultLanesObservationConvention.INSTANCE,
                () -> new LanesObservationContext(db, operation, label), observationRegistry);
        return observation.isNoop() ? null : observation.start();
    }

    @Override
    public void requestCompleted(Object started, String db, Operation operation, String label,
            Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {
        DatabaseMeters meters = active(db);
        meters.request(operation, outcome).record(totalNanos, TimeUnit.NANOSECONDS);
        if (replayed) {
            meters.replays().increment();
        }
        if (started instanceof Observation) {
            Observation observation = (Observation) started;
            if (observation.getContext() instanceof LanesObservationContext) {
                ((LanesObservationContext) observation.getContext())
                        .complete(outcome, replayed, groupSize, queueWaitNanos, totalNanos);
            }
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
        }
    }

    @Override
    public void checkpoint(String db, CheckpointType type, CheckpointTrigger trigger, long nanos,
            int walFrames, int checkpointedFrames, boolean busy, boolean failed) {
        DatabaseMeters meters = meters(db);
        int result = DatabaseMeters.checkpointResult(walFrames, checkpointedFrames, busy, failed);
        meters.checkpoint(type, trigger, result).record(nanos, TimeUnit.NANOSECONDS);
        if (!failed && checkpointedFrames >= 0) {
            meters.checkpointFrames(type, trigger, false).record(checkpointedFrames);
            if (walFrames >= checkpointedFrames) {
                meters.checkpointFrames(type, trigger, true)
                        .record(walFrames - checkpointedFrames);
            }
        }
    }

    @Override
    public void readerCheckout(String db, long waitNanos, boolean acquired) {
        meters(db).readerWait(acquired).record(waitNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void connectionsEvicted(String db, int connections) {
        evictions.increment();
    }

    @Override
    public void connectionReopened(String db, long nanos) {
        reopens.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void diskFloorRefused(String db, long freeBytes, long floorBytes) {
        meters(db).floorRefusals().increment();
    }

    @Override
    public void changeDelivered(String db, long lagNanos) {
        meters(db).changeLag().record(lagNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The meters events of {@code db} count in. A database that did not open through this
     * listener (its open was reported to another one, or it already closed) counts in the
     * meters kept for its name, else in the shared ones; under perDatabase it gets meters looked
     * up in the registry each time, never cached, so late events cannot make a cache grow.
     */
    private DatabaseMeters meters(String db) {
        Entry entry = open.get(db);
        if (entry != null) {
            return entry.meters;
        }
        DatabaseMeters meters = named.get(db);
        if (meters != null) {
            return meters;
        }
        return shared != null ? shared : new DatabaseMeters(registry, commonTags, db, percentiles);
    }

    /** {@link #meters}, for an event that counts as activity in the busiest ranking. */
    private DatabaseMeters active(String db) {
        Entry entry = open.get(db);
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
            rank();
        } catch (RuntimeException e) {
            log.warn("ranking the busiest databases failed; the tagged databases stay as they "
                    + "were", e);
        } finally {
            rankLock.unlock();
        }
    }

    /** Ranks the open databases once; see {@link DatabaseTagging#busiest(int, Duration)}. */
    // guarded by rankLock
    void rank() {
        List<Entry> entries = new ArrayList<>(open.size());
        for (Entry entry : open.values()) {
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
            BusiestRanking.Decision<Entry> decision =
                    BusiestRanking.rank(entries, tagging.busiest());
            for (Entry entry : decision.demote()) {
                if (open.get(entry.name) != entry || entry.meters == shared) {
                    continue; // it closed or changed meanwhile
                }
                DatabaseMeters own = entry.meters;
                unbind(own);
                entry.meters = shared;
                named.remove(entry.name, own);
                own.retire();
                bindSharedGauges();
            }
            for (Entry entry : decision.promote()) {
                if (open.get(entry.name) != entry || entry.meters != shared
                        || entry.name.equals(shared.db)) {
                    continue;
                }
                DatabaseMeters own = named.computeIfAbsent(entry.name,
                        n -> new DatabaseMeters(registry, commonTags, n, percentiles));
                bindDatabaseGauges(own, entry.gauges);
                entry.meters = own;
            }
        } finally {
            bindLock.unlock();
        }
    }

    /** One open database as the listener keeps it. */
    private static final class Entry implements BusiestRanking.Candidate {
        final String name;
        final DatabaseGauges gauges;
        /** Requests and commands since the last ranking. */
        final LongAdder activity = new LongAdder();
        /** Its own meters, or the shared ones; written under bindLock, read by any event. */
        volatile DatabaseMeters meters;
        // guarded by rankLock
        double score;
        // guarded by rankLock: whether it had meters of its own when the ranking began
        boolean rankedTagged;

        Entry(String name, DatabaseGauges gauges) {
            this.name = name;
            this.gauges = gauges;
        }

        @Override
        public double score() {
            return score;
        }

        @Override
        public boolean tagged() {
            return rankedTagged;
        }
    }

    // ------------------------------------------------------------------ folded gauges

    /**
     * What the gauges of the shared meters and the state counts read: one scan of the open
     * databases. Values are NaN where no database reported one.
     */
    static final class Fold {
        final double queueDepth;
        final double poisoned;
        final double transactionsOpen;
        final double walMax;
        final double readersActive;
        final double readersWaiting;
        final double freeMin;
        final double reserveMax;
        final double[] states;
        final double poisonedAll;
        final long at;

        Fold(Iterable<Entry> entries, DatabaseMeters shared, long at) {
            this.at = at;
            long queue = 0;
            long poisonedShared = 0;
            long tx = 0;
            long walMaxSeen = -1;
            long active = -1;
            long waiting = -1;
            long free = -1;
            long reserve = -1;
            long[] counts = new long[COUNTED_STATES.length];
            boolean statesReported = false;
            long poisonedAny = 0;
            boolean any = false;
            for (Entry e : entries) {
                any = true;
                DatabaseGauges g = e.gauges;
                boolean poisonedNow = g.writerPoisoned();
                DatabaseState state = g.state();
                if (state != null) {
                    statesReported = true;
                    for (int i = 0; i < COUNTED_STATES.length; i++) {
                        if (COUNTED_STATES[i] == state) {
                            counts[i]++;
                        }
                    }
                }
                if (poisonedNow) {
                    poisonedAny++;
                }
                if (e.meters != shared) {
                    continue;
                }
                queue += g.queueDepth();
                poisonedShared += poisonedNow ? 1 : 0;
                tx += g.transactionOpen() ? 1 : 0;
                walMaxSeen = Math.max(walMaxSeen, g.walBytes());
                active = addReported(active, g.readersInUse());
                waiting = addReported(waiting, g.readersWaiting());
                long f = g.freeBytes();
                if (f >= 0) {
                    free = free < 0 ? f : Math.min(free, f);
                }
                reserve = Math.max(reserve, g.diskReserveBytes());
            }
            queueDepth = queue;
            poisoned = poisonedShared;
            transactionsOpen = tx;
            walMax = reported(walMaxSeen);
            readersActive = reported(active);
            readersWaiting = reported(waiting);
            freeMin = reported(free);
            reserveMax = reported(reserve);
            states = new double[COUNTED_STATES.length];
            for (int i = 0; i < states.length; i++) {
                states[i] = statesReported || !any ? counts[i] : Double.NaN;
            }
            poisonedAll = poisonedAny;
        }

        double state(DatabaseState state) {
            for (int i = 0; i < COUNTED_STATES.length; i++) {
                if (COUNTED_STATES[i] == state) {
                    return states[i];
                }
            }
            return Double.NaN;
        }

        private static long addReported(long sum, long value) {
            if (value < 0) {
                return sum;
            }
            return sum < 0 ? value : sum + value;
        }
    }

    /** The current fold, scanning the open databases when the last scan is too old. */
    Fold fold() {
        Fold current = fold;
        long now = System.nanoTime();
        if (current != null && now - current.at < foldRefreshNanos) {
            return current;
        }
        if (current != null && !foldLock.tryLock()) {
            return current; // another reader scans now
        }
        if (current == null) {
            foldLock.lock();
        }
        try {
            Fold latest = fold;
            if (latest != null && latest != current && now - latest.at < foldRefreshNanos) {
                return latest;
            }
            Fold computed = new Fold(open.values(), shared, System.nanoTime());
            fold = computed;
            return computed;
        } finally {
            foldLock.unlock();
        }
    }

    // ------------------------------------------------------------------ gauges

    // guarded by bindLock
    private void bindDatabaseGauges(DatabaseMeters meters, DatabaseGauges gauges) {
        Tags tags = meters.tags;
        meters.source = gauges; // the registry holds gauges weakly: keep the source reachable
        List<BoundGauge> bound = meters.gauges;
        bound.add(bindGauge(QUEUE_DEPTH, "Writes waiting in the queue", tags, gauges,
                g -> g.queueDepth(), null));
        bound.add(bindGauge(POISONED, "1 while the writer is poisoned and refuses work, else 0",
                tags, gauges, g -> g.writerPoisoned() ? 1 : 0, null));
        bound.add(bindGauge(TRANSACTION_OPEN, "1 while an interactive transaction pins the "
                + "writer, else 0", tags, gauges, g -> g.transactionOpen() ? 1 : 0, null));
        bound.add(bindGauge(WAL_SIZE, "Bytes of the -wal file", tags, gauges,
                g -> reported(g.walBytes()), "bytes"));
        bound.add(bindGauge(READERS_ACTIVE, "Reader connections checked out by reads", tags,
                gauges, g -> reported(g.readersInUse()), null));
        bound.add(bindGauge(READERS_WAITING, "Reads waiting for a reader connection", tags,
                gauges, g -> reported(g.readersWaiting()), null));
        bound.add(bindGauge(DISK_FREE, "Free bytes on the database's volume, as the latest "
                + "write turn sampled them", tags, gauges, g -> reported(g.freeBytes()),
                "bytes"));
        bound.add(bindGauge(DISK_RESERVE, "diskReserveBytes: writes are refused at or below it",
                tags, gauges, g -> reported(g.diskReserveBytes()), "bytes"));
    }

    /** Binds the folded gauges of the shared meters, once a database counts in them. */
    // guarded by bindLock
    private void bindSharedGauges() {
        if (sharedGaugesBound || closed) {
            return;
        }
        sharedGaugesBound = true;
        Tags tags = shared.tags;
        shared.source = this;
        List<BoundGauge> bound = shared.gauges;
        bound.add(bindGauge(QUEUE_DEPTH, "Writes waiting in the queue (sum)", tags, this,
                m -> m.fold().queueDepth, null));
        bound.add(bindGauge(POISONED, "Databases whose writer is poisoned", tags, this,
                m -> m.fold().poisoned, null));
        bound.add(bindGauge(TRANSACTION_OPEN, "Databases with an interactive transaction open",
                tags, this, m -> m.fold().transactionsOpen, null));
        bound.add(bindGauge(WAL_SIZE, "Bytes of the largest -wal file", tags, this,
                m -> m.fold().walMax, "bytes"));
        bound.add(bindGauge(READERS_ACTIVE, "Reader connections checked out by reads (sum)",
                tags, this, m -> m.fold().readersActive, null));
        bound.add(bindGauge(READERS_WAITING, "Reads waiting for a reader connection (sum)",
                tags, this, m -> m.fold().readersWaiting, null));
        bound.add(bindGauge(DISK_FREE, "Free bytes on the fullest volume", tags, this,
                m -> m.fold().freeMin, "bytes"));
        bound.add(bindGauge(DISK_RESERVE, "The largest diskReserveBytes", tags, this,
                m -> m.fold().reserveMax, "bytes"));
    }

    /** A reported value, or NaN for the SPI's "not reported" (a negative number). */
    static double reported(long value) {
        return value < 0 ? Double.NaN : value;
    }

    /**
     * Which Lanes binding's gauge is registered under each id, per registry, across every
     * {@code MicrometerMetrics} of this JVM: binding and unbinding look up only this table, in
     * constant time, where a registry search would scan every meter (quadratic when 100,000
     * databases open under {@link DatabaseTagging#perDatabase()}). Weak keys: a registry that is
     * gone takes its table with it.
     */
    private static final Map<MeterRegistry, ConcurrentHashMap<Meter.Id, Gauge>> GAUGE_OWNERS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private final ConcurrentHashMap<Meter.Id, Gauge> gaugeOwners;

    /** A gauge this binding registered, with the id it was registered under (before filters). */
    record BoundGauge(Meter.Id key, Gauge gauge) {}

    // guarded by bindLock
    private <T> BoundGauge bindGauge(String name, String description, Tags tags, T source,
            ToDoubleFunction<T> value, String baseUnit) {
        Meter.Id id = new Meter.Id(name, tags, baseUnit, description, Meter.Type.GAUGE);
        Gauge previous = gaugeOwners.get(id);
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
        gaugeOwners.put(id, gauge);
        return new BoundGauge(id, gauge);
    }

    // guarded by bindLock
    private void unbind(DatabaseMeters meters) {
        unbind(meters.gauges);
        meters.source = null;
    }

    // guarded by bindLock: removes the gauges, unless a newer binding took their place
    private void unbind(List<BoundGauge> gauges) {
        for (BoundGauge bound : gauges) {
            // by identity: meters are equal when their ids are, whoever registered them
            boolean[] ours = new boolean[1];
            gaugeOwners.computeIfPresent(bound.key(), (key, current) -> {
                ours[0] = current == bound.gauge();
                return ours[0] ? null : current;
            });
            if (ours[0]) {
                registry.remove(bound.gauge());
            }
        }
        gauges.clear();
    }

    /** The names of the databases that have meters of their own now (for tests). */
    java.util.Set<String> taggedDatabases() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (Entry entry : open.values()) {
            if (entry.meters != shared) {
                names.add(entry.name);
            }
        }
        return names;
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

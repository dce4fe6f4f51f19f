package dev.lanes.micrometer;

import static dev.lanes.micrometer.MeterNames.EVICTIONS;
import static dev.lanes.micrometer.MeterNames.REOPEN;

import dev.lanes.ErrorCode;
import dev.lanes.MetricsListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

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
 * The meters, their tags and what each measures are listed in the {@linkplain
 * dev.lanes.micrometer package documentation}. Every meter carries the common tags given to the
 * builder; database meters also carry {@code db}, as the tagging policy decides.
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
 * per-event paths take no lock and allocate nothing once their meters exist. {@code
 * MeterDirectory} keeps which meters each database counts in and states the locks that guard
 * its bindings and rankings; the fields of this class are final and set before it is published.
 */
public final class MicrometerMetrics implements MetricsListener, AutoCloseable {
    private final ObservationRegistry observations;
    private final LanesObservationConvention observationConvention;
    /** Which meters each database's events count in. */
    private final MeterDirectory directory;
    private final Counter evictions;
    private final Timer reopens;

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
        this.observations = b.observations;
        this.observationConvention = b.convention;
        this.directory = new MeterDirectory(b.registry, b.tags, b.tagging, b.percentiles.clone(),
                b.foldRefresh.toNanos());
        this.evictions = Counter.builder(EVICTIONS)
                .description("Idle databases whose connections the connection budget closed")
                .tags(b.tags).register(b.registry);
        this.reopens = Timer.builder(REOPEN)
                .description("An evicted database reopening its writer connection")
                .tags(b.tags).register(b.registry);
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
                if (MeterNames.isReserved(tag.getKey())) {
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

        /** The binding, to give to {@code Lanes.builder().metrics(...)}. */
        public MicrometerMetrics build() {
            return new MicrometerMetrics(this);
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void runtimeStarted(PoolGauges pool) {
        directory.runtimeStarted(Objects.requireNonNull(pool, "pool"));
    }

    @Override
    public void databaseOpened(String db, DatabaseGauges gauges) {
        directory.databaseOpened(db, Objects.requireNonNull(gauges, "gauges"));
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
        directory.forget(db);
    }

    @Override
    public void uncleanClose(String db) {
        DatabaseMeters meters = meters(db);
        // Gauges go first: whoever sees the count also sees the database's gauges gone.
        directory.forget(db);
        meters.uncleanCloses.increment();
    }

    /**
     * The runtime closed (after its databases): its gauges leave the registry, the shared ones
     * included; counters and timers stay. A runtime started later with this binding binds anew.
     */
    @Override
    public void runtimeClosed() {
        directory.unbindAll(false);
    }

    /**
     * Removes every gauge this binding registered (the runtime's and the open databases') and
     * binds no more; counters and timers stay in the registry and keep counting. Call it once
     * the runtime is closed, when the registry outlives it.
     */
    @Override
    public void close() {
        directory.unbindAll(true);
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

    private DatabaseMeters meters(String db) {
        return directory.meters(db);
    }

    private DatabaseMeters active(String db) {
        return directory.active(db);
    }

    /** Ranks the open databases now, as the first event after a period would (for tests). */
    void rank() {
        directory.rank();
    }

    /** The names of the databases that have meters of their own now (for tests). */
    Set<String> taggedDatabases() {
        return directory.taggedDatabases();
    }
}

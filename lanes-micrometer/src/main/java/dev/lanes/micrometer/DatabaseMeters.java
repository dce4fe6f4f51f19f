package dev.lanes.micrometer;

import static dev.lanes.micrometer.MicrometerMetrics.*;

import dev.lanes.ErrorCode;
import dev.lanes.MetricsListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The meters of one value of the {@code db} tag: one database's, or the shared ones ({@code
 * _other}, {@code _all}) that many databases count in.
 *
 * <p>Concurrency: the final fields are written once, before the object is published. Meters
 * registered on first use live in {@link AtomicReferenceArray}s or concurrent maps; two threads
 * racing to register one get the same meter (registration is idempotent). Every meter this
 * object registers is also put in {@link #registered}, so that {@link #retire()} can take them
 * all out of the registry. The order of {@link #retired} and {@link #registered} makes that
 * race-free: {@code retire} sets {@code retired} and then drains the queue; a registration adds
 * to the queue and then reads {@code retired}, and removes its meter itself when it is set. So
 * either the drain sees the meter or the registering thread sees the flag. {@link #gauges} and
 * {@link #source} are guarded by {@link MicrometerMetrics}' bind lock.
 */
final class DatabaseMeters {
    private static final MetricsListener.Operation[] OPERATIONS =
            MetricsListener.Operation.values();
    private static final MetricsListener.Outcome[] OUTCOMES = MetricsListener.Outcome.values();
    private static final MetricsListener.CheckpointType[] CHECKPOINT_TYPES =
            MetricsListener.CheckpointType.values();
    private static final MetricsListener.CheckpointTrigger[] CHECKPOINT_TRIGGERS =
            MetricsListener.CheckpointTrigger.values();
    private static final String[] CHECKPOINT_RESULTS = {"complete", "partial", "busy", "failed"};
    private static final ErrorCode[] ERROR_CODES = ErrorCode.values();

    private final MeterRegistry registry;
    private final double[] percentiles;
    /** The {@code db} tag value. */
    final String db;
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
    private final AtomicReferenceArray<Counter> errors =
            new AtomicReferenceArray<>(ERROR_CODES.length);
    /** Command timers by operation, in-transaction and outcome; then by statement kind. */
    private final CommandTimers[] commands = new CommandTimers[OPERATIONS.length * 4];
    /** Request timers by operation and outcome, registered on first use. */
    private final AtomicReferenceArray<Timer> requests =
            new AtomicReferenceArray<>(OPERATIONS.length * OUTCOMES.length);
    /** Checkpoint timers by type, trigger and result, registered on first use. */
    private final AtomicReferenceArray<Timer> checkpoints = new AtomicReferenceArray<>(
            CHECKPOINT_TYPES.length * CHECKPOINT_TRIGGERS.length * CHECKPOINT_RESULTS.length);
    /** Checkpoint page and backlog summaries by type and trigger (two per slot). */
    private final AtomicReferenceArray<DistributionSummary> checkpointPages =
            new AtomicReferenceArray<>(CHECKPOINT_TYPES.length * CHECKPOINT_TRIGGERS.length * 2);
    /** Reader wait timers: [0] without a reader, [1] with one. */
    private final AtomicReferenceArray<Timer> readerWaits = new AtomicReferenceArray<>(2);
    /** The rest, registered on first use: replays, floor refusals, change lag. */
    private final AtomicReferenceArray<Meter> singles = new AtomicReferenceArray<>(3);
    private static final int REPLAYS = 0;
    private static final int FLOOR_REFUSALS = 1;
    private static final int CHANGE_LAG = 2;

    /** Every meter registered here, so that {@link #retire()} can remove them. */
    private final ConcurrentLinkedQueue<Meter> registered = new ConcurrentLinkedQueue<>();
    private volatile boolean retired;

    // guarded by MicrometerMetrics.bindLock
    final List<MicrometerMetrics.BoundGauge> gauges = new ArrayList<>(9);
    /** The gauges' source, held so that the registry's weak reference stays valid. */
    // guarded by MicrometerMetrics.bindLock
    Object source;

    DatabaseMeters(MeterRegistry registry, Tags commonTags, String db, double[] percentiles) {
        this.registry = registry;
        this.percentiles = percentiles;
        this.db = db;
        this.tags = commonTags.and(DB, db);
        queueWait = keep(Timer.builder(QUEUE_WAIT)
                .description("From a request's submission until its turn began")
                .publishPercentiles(percentiles)
                .tags(tags).register(registry));
        groupSize = keep(DistributionSummary.builder(GROUP_SIZE)
                .description("Writes committed by one transaction (group commit)")
                .baseUnit("writes").tags(tags).register(registry));
        groupDuration = keep(Timer.builder(GROUP_DURATION)
                .description("One group's transaction, from BEGIN IMMEDIATE to the end of COMMIT")
                .tags(tags).register(registry));
        overloads = keep(Counter.builder(OVERLOADS)
                .description("Writes refused because the queue was full")
                .tags(tags).register(registry));
        slowWrites = keep(Counter.builder(SLOW_WRITES)
                .description("Turns with a write slower than slowWriteThreshold (each logged one "
                        + "WARN)")
                .tags(tags).register(registry));
        closeDuration = keep(Timer.builder(CLOSE_DURATION)
                .description("From the close request until the connections were closed")
                .tags(tags).register(registry));
        closeTimeouts = keep(Counter.builder(CLOSE_TIMEOUTS)
                .description("close() calls that gave up waiting; the close went on")
                .tags(tags).register(registry));
        crashes = keep(Counter.builder(CRASHES)
                .description("Turns that failed with an unexpected error (a defect)")
                .tags(tags).register(registry));
        uncleanCloses = keep(Counter.builder(UNCLEAN_CLOSES)
                .description("Databases garbage-collected without close()")
                .tags(tags).register(registry));
        for (int op = 0; op < OPERATIONS.length; op++) {
            for (int inTx = 0; inTx < 2; inTx++) {
                for (int ok = 0; ok < 2; ok++) {
                    commands[(op * 2 + inTx) * 2 + ok] = new CommandTimers(tags.and(
                            OPERATION, lower(OPERATIONS[op]),
                            IN_TRANSACTION, inTx == 1 ? "true" : "false",
                            OUTCOME, ok == 1 ? "success" : "failure"));
                }
            }
        }
    }

    // ------------------------------------------------------------------ lookups

    Timer command(MetricsListener.Operation operation, boolean inTransaction,
            String statementKind, boolean success) {
        int slot = (operation.ordinal() * 2 + (inTransaction ? 1 : 0)) * 2 + (success ? 1 : 0);
        return commands[slot].timer(statementKind);
    }

    Counter error(ErrorCode code) {
        return lazy(errors, code.ordinal(), () -> Counter.builder(ERRORS)
                .description("Failed requests, by error code")
                .tags(tags).tag(CODE, lower(code))
                .register(registry));
    }

    Timer request(MetricsListener.Operation operation, MetricsListener.Outcome outcome) {
        return lazy(requests, operation.ordinal() * OUTCOMES.length + outcome.ordinal(),
                () -> Timer.builder(REQUEST_DURATION)
                        .description("From a request's submission until its outcome was known "
                                + "(a transaction: from begin() to the end of commit or rollback)")
                        .publishPercentiles(percentiles)
                        .tags(tags).tag(OPERATION, lower(operation))
                        .tag(OUTCOME, outcomeTag(outcome))
                        .register(registry));
    }

    Counter replays() {
        return (Counter) lazy(singles, REPLAYS, () -> Counter.builder(REPLAYS_COUNTER)
                .description("Requests whose body ran again after a neighbour ended their "
                        + "group's transaction")
                .tags(tags).register(registry));
    }

    Counter floorRefusals() {
        return (Counter) lazy(singles, FLOOR_REFUSALS, () -> Counter.builder(DISK_FLOOR_REFUSALS)
                .description("Write turns refused at the disk reserve (CapacityFloorException)")
                .tags(tags).register(registry));
    }

    Timer changeLag() {
        return (Timer) lazy(singles, CHANGE_LAG, () -> Timer.builder(CHANGE_LAG_TIMER)
                .description("From a commit until its change notification reached a subscriber")
                .tags(tags).register(registry));
    }

    Timer readerWait(boolean acquired) {
        return lazy(readerWaits, acquired ? 1 : 0, () -> Timer.builder(READER_WAIT)
                .description("A read's wait for a reader connection")
                .publishPercentiles(percentiles)
                .tags(tags).tag(OUTCOME, acquired ? "acquired" : "not_acquired")
                .register(registry));
    }

    Timer checkpoint(MetricsListener.CheckpointType type,
            MetricsListener.CheckpointTrigger trigger, int result) {
        int slot = (type.ordinal() * CHECKPOINT_TRIGGERS.length + trigger.ordinal())
                * CHECKPOINT_RESULTS.length + result;
        return lazy(checkpoints, slot, () -> Timer.builder(CHECKPOINT_DURATION)
                .description("One PRAGMA wal_checkpoint, by mode, by who ran it and by result")
                .tags(tags).tag(MODE, lower(type)).tag(TRIGGER, lower(trigger))
                .tag(RESULT, CHECKPOINT_RESULTS[result])
                .register(registry));
    }

    /** The pages summary ({@code backlog} false) or the backlog summary of a checkpoint. */
    DistributionSummary checkpointFrames(MetricsListener.CheckpointType type,
            MetricsListener.CheckpointTrigger trigger, boolean backlog) {
        int slot = (type.ordinal() * CHECKPOINT_TRIGGERS.length + trigger.ordinal()) * 2
                + (backlog ? 1 : 0);
        return lazy(checkpointPages, slot, () -> DistributionSummary
                .builder(backlog ? CHECKPOINT_BACKLOG : CHECKPOINT_PAGES)
                .description(backlog
                        ? "WAL frames a checkpoint left behind (not yet in the database file)"
                        : "WAL frames in the database file after a checkpoint")
                .baseUnit("pages")
                .tags(tags).tag(MODE, lower(type)).tag(TRIGGER, lower(trigger))
                .register(registry));
    }

    /** The index of a checkpoint's result tag, as {@link #checkpoint} takes it. */
    static int checkpointResult(int walFrames, int checkpointedFrames, boolean busy,
            boolean failed) {
        if (failed) {
            return 3;
        }
        if (busy) {
            return 2;
        }
        return walFrames == checkpointedFrames ? 0 : 1;
    }

    // ------------------------------------------------------------------ registration

    private <M extends Meter> M lazy(AtomicReferenceArray<M> slots, int slot, Supplier<M> create) {
        M meter = slots.get(slot);
        if (meter == null) {
            meter = keep(create.get());
            slots.set(slot, meter);
        }
        return meter;
    }

    /** Records a meter this object registered; see the class comment for the order. */
    private <M extends Meter> M keep(M meter) {
        registered.add(meter);
        if (retired) {
            registry.remove(meter);
        }
        return meter;
    }

    /**
     * Takes every meter registered here out of the registry; the gauges are the caller's (they
     * need the bind lock). Events that still reach this object afterwards count in meters the
     * registry no longer publishes.
     */
    void retire() {
        retired = true;
        for (Meter meter; (meter = registered.poll()) != null; ) {
            registry.remove(meter);
        }
    }

    /** How many meters this object registered and has not retired, gauges not included. */
    int registeredCount() {
        return registered.size();
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    static String outcomeTag(MetricsListener.Outcome outcome) {
        switch (outcome) {
            case SUCCEEDED:
                return "success";
            case FAILED:
                return "failure";
            default:
                return lower(outcome);
        }
    }

    /** The command timers of one (operation, in-transaction, outcome), by statement kind. */
    private final class CommandTimers {
        final Tags tags;
        /** By tag value, so bounded by the statement kinds and "other". */
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
            return byKind.computeIfAbsent(kind, k -> keep(Timer.builder(COMMAND_DURATION)
                    .description("One command's body or statement")
                    .tags(tags).tag(STATEMENT_KIND, k)
                    .register(registry)));
        }
    }
}

package dev.lanes.internal.telemetry;

import dev.lanes.CheckpointResult;
import dev.lanes.LanesException;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.MetricsListener.CheckpointType;
import dev.lanes.MetricsListener.Operation;
import dev.lanes.MetricsListener.Outcome;
import dev.lanes.MetricsListener;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.util.LogNames;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the runtime's {@link MetricsListener} on behalf of one database (or the runtime itself),
 * so that a failing listener never reaches a lane, a read or a caller: its first failure is
 * logged in full, later ones at debug.
 *
 * <p>The per-request events have methods of their own, which call the listener directly: a
 * lambda handed to {@link #report} would be allocated per call, and those events run once per
 * request. Each returns at once when no listener is installed.
 *
 * <p>Thread-safe: called from whichever thread reports (a lane's holder, a reader, the timer);
 * {@link #failed} is a one-way latch and only decides how loudly to log.
 */
public final class MetricsReporter {
    private static final Logger log = LoggerFactory.getLogger(LogNames.METRICS);

    /** Reports nothing; for parts built before their database installs its reporter. */
    public static final MetricsReporter NONE = new MetricsReporter("", MetricsListener.NONE);

    private final String name;
    private final MetricsListener listener;
    private volatile boolean failed;

    /**
     * The reporter of {@code name} to {@code listener}: {@link #NONE} when there is no listener,
     * whose name nothing reads, so that a runtime without one keeps no reporter per database.
     */
    public static MetricsReporter of(String name, MetricsListener listener) {
        return listener == MetricsListener.NONE ? NONE : new MetricsReporter(name, listener);
    }

    public MetricsReporter(String name, MetricsListener listener) {
        this.name = name;
        this.listener = listener;
    }

    /** Whether a listener is installed; without one, callers skip preparing what they report. */
    public boolean enabled() {
        return listener != MetricsListener.NONE;
    }

    /** Calls the listener; its failures are logged and never thrown. */
    public void report(Consumer<MetricsListener> call) {
        if (!enabled()) {
            return;
        }
        try {
            call.accept(listener);
        } catch (RuntimeException | LinkageError e) {
            failed(e);
        }
    }

    private void failed(Throwable e) {
        if (!failed) {
            failed = true;
            log.warn("{}: the metrics listener failed; its failures are ignored (logged at "
                    + "debug from now on)", name, e);
        } else {
            log.debug("{}: the metrics listener failed again", name, e);
        }
    }

    // ------------------------------------------------------------------ requests

    /**
     * {@link MetricsListener#requestStarted}; call it only when {@link #enabled()}, and then call
     * {@link #requestCompleted} exactly once for the request.
     *
     * @return what the listener returned, or null when it failed
     */
    public Object requestStarted(Operation operation, String label) {
        try {
            return listener.requestStarted(name, operation, label);
        } catch (RuntimeException | LinkageError e) {
            failed(e);
            return null;
        }
    }

    /** {@link MetricsListener#requestCompleted}, for a request {@link #requestStarted} began. */
    public void requestCompleted(Object started, Operation operation, String label,
            Outcome outcome, Throwable failure, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {
        try {
            listener.requestCompleted(started, name, operation, label, outcome, failure, replayed,
                    groupSize, Math.max(0, queueWaitNanos), Math.max(0, totalNanos));
        } catch (RuntimeException | LinkageError e) {
            failed(e);
        }
    }

    /**
     * How a write, maintenance request or transaction ended, by the failure its caller gets
     * (null: it committed).
     */
    public static Outcome writeOutcome(LanesException failure) {
        if (failure == null) {
            return Outcome.COMMITTED;
        }
        WriteOutcome outcome = failure.outcome();
        return outcome == WriteOutcome.UNKNOWN ? Outcome.UNKNOWN
                : outcome == WriteOutcome.ROLLED_BACK ? Outcome.ROLLED_BACK : Outcome.NOT_STARTED;
    }

    /** {@link MetricsListener#readerCheckout}; once per read, so it costs nothing when off. */
    public void readerCheckout(long waitNanos, boolean acquired) {
        if (!enabled()) {
            return;
        }
        try {
            listener.readerCheckout(name, Math.max(0, waitNanos), acquired);
        } catch (RuntimeException | LinkageError e) {
            failed(e);
        }
    }

    /** {@link MetricsListener#changeDelivered}; once per subscriber and change. */
    public void changeDelivered(long lagNanos) {
        if (!enabled()) {
            return;
        }
        try {
            listener.changeDelivered(name, Math.max(0, lagNanos));
        } catch (RuntimeException | LinkageError e) {
            failed(e);
        }
    }

    // ------------------------------------------------------------------ rarer events

    /** {@link MetricsListener#checkpoint} for a run that returned {@code result}. */
    public void checkpoint(CheckpointType type, CheckpointTrigger trigger, long nanos,
            CheckpointResult result) {
        report(m -> m.checkpoint(name, type, trigger, nanos, result.walFrames(),
                result.checkpointedFrames(), result.busy(), false));
    }

    /** {@link MetricsListener#checkpoint} for a run that threw. */
    public void checkpointFailed(CheckpointType type, CheckpointTrigger trigger, long nanos) {
        report(m -> m.checkpoint(name, type, trigger, nanos, -1, -1, false, true));
    }

    /** {@link MetricsListener#connectionsEvicted}. */
    public void connectionsEvicted(int connections) {
        report(m -> m.connectionsEvicted(name, connections));
    }

    /** {@link MetricsListener#connectionReopened}. */
    public void connectionReopened(long nanos) {
        report(m -> m.connectionReopened(name, nanos));
    }

    /** {@link MetricsListener#diskFloorRefused}. */
    public void diskFloorRefused(long freeBytes, long floorBytes) {
        report(m -> m.diskFloorRefused(name, freeBytes, floorBytes));
    }
}

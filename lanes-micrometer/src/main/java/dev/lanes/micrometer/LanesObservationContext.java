package dev.lanes.micrometer;

import dev.lanes.MetricsListener;
import io.micrometer.observation.Observation;

/**
 * What an observation of one Lanes request knows: set at submission (database, operation,
 * label), completed once the outcome is known (outcome, replay, group size, queue wait). An
 * {@link io.micrometer.observation.ObservationConvention} or handler reads it; see {@link
 * DefaultLanesObservationConvention} for the key values it becomes.
 *
 * <p>Concurrency: created on the submitting thread and completed by the thread that learned the
 * outcome, before the observation stops; handlers read it after {@code stop()}, which the
 * observation's own hand-over orders after the completion.
 */
public final class LanesObservationContext extends Observation.Context {
    private final String database;
    private final MetricsListener.Operation operation;
    private final String label;
    private MetricsListener.Outcome outcome;
    private boolean replayed;
    private int groupSize;
    private long queueWaitNanos;
    private long totalNanos;

    LanesObservationContext(String database, MetricsListener.Operation operation, String label) {
        this.database = database;
        this.operation = operation;
        this.label = label;
    }

    void complete(MetricsListener.Outcome outcome, boolean replayed, int groupSize,
            long queueWaitNanos, long totalNanos) {
        this.outcome = outcome;
        this.replayed = replayed;
        this.groupSize = groupSize;
        this.queueWaitNanos = queueWaitNanos;
        this.totalNanos = totalNanos;
    }

    /** The database's name, as the runtime names it. */
    public String database() {
        return database;
    }

    /** What the request is: a write, a read, a maintenance request or a transaction. */
    public MetricsListener.Operation operation() {
        return operation;
    }

    /** The request's label ({@link dev.lanes.WriteOptions#label()}), or {@code null}. */
    public String label() {
        return label;
    }

    /** How the request ended; {@code null} until it did. */
    public MetricsListener.Outcome outcome() {
        return outcome;
    }

    /** Whether its body ran again after a neighbour ended its group's transaction. */
    public boolean replayed() {
        return replayed;
    }

    /** Requests in the transaction that committed or failed it; 0 before the outcome. */
    public int groupSize() {
        return groupSize;
    }

    /** From submission until its turn began, in nanoseconds; 0 before the outcome. */
    public long queueWaitNanos() {
        return queueWaitNanos;
    }

    /** From submission until the outcome, in nanoseconds, as the runtime measured it. */
    public long totalNanos() {
        return totalNanos;
    }
}

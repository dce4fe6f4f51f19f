package dev.lanes.micrometer;

import dev.lanes.MetricsListener;
import io.micrometer.common.KeyValues;

/**
 * The observations of Lanes requests: one per write, read, maintenance request and interactive
 * transaction, named {@value #NAME}, with the contextual name {@code "<operation> <database>"}
 * (for instance {@code "write orders.db"}).
 *
 * <table>
 * <caption>Key values</caption>
 * <tr><th>key</th><th>cardinality</th><th>values</th></tr>
 * <tr><td>{@value #DB_SYSTEM}</td><td>low</td><td>{@code sqlite}</td></tr>
 * <tr><td>{@value #DB_OPERATION}</td><td>low</td><td>{@code write}, {@code read}, {@code
 *     maintenance}, {@code transaction}</td></tr>
 * <tr><td>{@value #OUTCOME}</td><td>low</td><td>{@code committed}, {@code rolled_back}, {@code
 *     not_started}, {@code unknown} (writes, maintenance, transactions); {@code success}, {@code
 *     failure} (reads); set once the outcome is known</td></tr>
 * <tr><td>{@value #REPLAYED}</td><td>low</td><td>{@code true}, {@code false}; set once the
 *     outcome is known</td></tr>
 * <tr><td>{@value #DB_NAMESPACE}</td><td>high</td><td>the database's name</td></tr>
 * <tr><td>{@value #LABEL}</td><td>high</td><td>the request's {@link
 *     dev.lanes.WriteOptions#label()}, when it has one</td></tr>
 * <tr><td>{@value #GROUP_SIZE}</td><td>high</td><td>requests in the transaction that committed
 *     or failed it</td></tr>
 * <tr><td>{@value #QUEUE_WAIT}</td><td>high</td><td>nanoseconds from submission until its turn
 *     began</td></tr>
 * </table>
 * A failed request's observation also carries the exception the caller got ({@code error}).
 */
public class DefaultLanesObservationConvention implements LanesObservationConvention {
    /** The observations' name. */
    public static final String NAME = "lanes.request";
    /** Low cardinality: the database system, always {@code sqlite}. */
    public static final String DB_SYSTEM = "db.system.name";
    /** Low cardinality: {@code write}, {@code read}, {@code maintenance} or {@code transaction}. */
    public static final String DB_OPERATION = "db.operation";
    /** Low cardinality: how the request ended ({@code committed}, {@code rolled_back}…). */
    public static final String OUTCOME = "outcome";
    /** Low cardinality: whether the write ran again after a neighbour ended its group. */
    public static final String REPLAYED = "replayed";
    /** High cardinality: the database's name. */
    public static final String DB_NAMESPACE = "db.namespace";
    /** High cardinality: the write's {@code WriteOptions.label}, when it has one. */
    public static final String LABEL = "lanes.label";
    /** High cardinality: the writes in the request's commit group. */
    public static final String GROUP_SIZE = "lanes.group.size";
    /** High cardinality: how long the request waited in the queue, in nanoseconds. */
    public static final String QUEUE_WAIT = "lanes.queue.wait.nanos";

    /** The one instance the binding uses when given no convention. */
    static final DefaultLanesObservationConvention INSTANCE = new DefaultLanesObservationConvention();

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(LanesObservationContext context) {
        return MeterNames.lower(context.operation()) + " " + context.database();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LanesObservationContext context) {
        KeyValues values = KeyValues.of(DB_SYSTEM, "sqlite",
                DB_OPERATION, MeterNames.lower(context.operation()));
        MetricsListener.Outcome outcome = context.outcome();
        if (outcome == null) {
            return values; // started: the outcome is not known yet
        }
        return values.and(OUTCOME, MeterNames.outcomeTag(outcome),
                REPLAYED, Boolean.toString(context.replayed()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LanesObservationContext context) {
        KeyValues values = KeyValues.of(DB_NAMESPACE, context.database());
        if (context.label() != null) {
            values = values.and(LABEL, context.label());
        }
        if (context.outcome() == null) {
            return values;
        }
        return values.and(GROUP_SIZE, Integer.toString(context.groupSize()),
                QUEUE_WAIT, Long.toString(context.queueWaitNanos()));
    }
}

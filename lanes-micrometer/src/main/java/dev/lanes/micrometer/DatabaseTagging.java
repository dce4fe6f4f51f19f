package dev.lanes.micrometer;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Which databases get meters of their own (a {@code db} tag with their name) and which share
 * one set of meters, so that a runtime with very many databases keeps a bounded number of
 * series. Given to {@link MicrometerMetrics.Builder#tagging(DatabaseTagging)}.
 *
 * <p>Every database meter carries the {@code db} tag whatever the policy (Prometheus wants the
 * same label names on every series of a metric): a database without meters of its own counts
 * in the meters tagged {@code db="_other"} ({@link #OTHER}), or {@code db="_all"} ({@link #ALL})
 * under {@link #aggregated()}. Their gauges fold the databases they stand for: sums for counts
 * (queue depth, readers, open transactions, poisoned writers), the largest WAL, the least free
 * space and the largest reserve (see {@link MicrometerMetrics}'s meter table).
 *
 * <ul>
 *   <li>{@link #perDatabase()}: every database is tagged. Series grow with the databases, and
 *       the counters and timers of closed databases stay (as history); fine for a few
 *       databases, not for tenants.
 *   <li>{@link #aggregated()}: no database is tagged; a fixed number of series.
 *   <li>{@link #allowList(Set)}: the named databases are tagged, the others fold into {@code
 *       _other}.
 *   <li>{@link #busiest(int)}: the {@code n} busiest databases are tagged, the others fold. The
 *       default of {@link MicrometerMetrics}, with {@value #DEFAULT_BUSIEST}.
 * </ul>
 */
public final class DatabaseTagging {
    /** The {@code db} tag of the meters the databases without meters of their own share. */
    public static final String OTHER = "_other";
    /** The {@code db} tag of the meters every database shares under {@link #aggregated()}. */
    public static final String ALL = "_all";
    /** The {@code n} of the default policy, {@code busiest(5)}. */
    public static final int DEFAULT_BUSIEST = 5;
    /** How often {@link #busiest(int)} ranks the databases again. */
    public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(1);

    enum Kind { PER_DATABASE, AGGREGATED, ALLOW_LIST, BUSIEST }

    private final Kind kind;
    private final Set<String> allowed;
    private final int busiest;
    private final Duration period;

    private DatabaseTagging(Kind kind, Set<String> allowed, int busiest, Duration period) {
        this.kind = kind;
        this.allowed = allowed;
        this.busiest = busiest;
        this.period = period;
    }

    /** Every database gets meters of its own (the behaviour before tagging policies). */
    public static DatabaseTagging perDatabase() {
        return new DatabaseTagging(Kind.PER_DATABASE, Set.of(), 0, Duration.ZERO);
    }

    /** No database gets meters of its own: all share the meters tagged {@code db="_all"}. */
    public static DatabaseTagging aggregated() {
        return new DatabaseTagging(Kind.AGGREGATED, Set.of(), 0, Duration.ZERO);
    }

    /**
     * The databases named in {@code names} (as the runtime names them: their file name, see
     * {@link MicrometerMetrics}) get meters of their own; the others share {@code db="_other"}.
     */
    public static DatabaseTagging allowList(Set<String> names) {
        Set<String> copy = Set.copyOf(Objects.requireNonNull(names, "names"));
        return new DatabaseTagging(Kind.ALLOW_LIST, copy, 0, Duration.ZERO);
    }

    /** {@link #busiest(int, Duration)} ranking every {@link #DEFAULT_PERIOD}. */
    public static DatabaseTagging busiest(int n) {
        return busiest(n, DEFAULT_PERIOD);
    }

    /**
     * The {@code n} busiest databases get meters of their own; the others share {@code
     * db="_other"}. While fewer than {@code n} databases have meters of their own, a database
     * gets them as it opens, so a runtime of up to {@code n} databases is tagged as {@link
     * #perDatabase()} would tag it.
     *
     * <p>Busy means requests and commands: each costs one {@link
     * java.util.concurrent.atomic.LongAdder} increment. Every {@code period} the first event
     * after it ranks the databases once (a scan of the open ones, then the registry changes):
     * a database's score is half its previous score plus its requests of the period, so a burst
     * fades over a few periods. A database outside the top {@code n} takes the place of the
     * weakest tagged one only when its score is more than twice that one's (hysteresis: two
     * databases of about the same load do not swap every period). A database that loses its
     * place, or that closed, has its meters removed from the registry (its series end, as a
     * restarted process's would) and counts in {@code _other} from then on.
     *
     * @throws IllegalArgumentException when {@code n} is not positive or {@code period} is not
     *     positive
     */
    public static DatabaseTagging busiest(int n, Duration period) {
        if (n <= 0) {
            throw new IllegalArgumentException("busiest(n): n must be positive, was " + n);
        }
        Objects.requireNonNull(period, "period");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("busiest(n, period): period must be positive, was "
                    + period);
        }
        return new DatabaseTagging(Kind.BUSIEST, Set.of(), n, period);
    }

    Kind kind() {
        return kind;
    }

    Set<String> allowed() {
        return allowed;
    }

    int busiest() {
        return busiest;
    }

    Duration period() {
        return period;
    }

    /** The {@code db} tag of the shared meters; {@code null} under {@link #perDatabase()}. */
    String sharedTag() {
        switch (kind) {
            case PER_DATABASE:
                return null;
            case AGGREGATED:
                return ALL;
            default:
                return OTHER;
        }
    }

    @Override
    public String toString() {
        switch (kind) {
            case PER_DATABASE:
                return "perDatabase()";
            case AGGREGATED:
                return "aggregated()";
            case ALLOW_LIST:
                return "allowList(" + allowed + ")";
            default:
                return "busiest(" + busiest + ", " + period + ")";
        }
    }
}

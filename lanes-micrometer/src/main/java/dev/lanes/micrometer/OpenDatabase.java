package dev.lanes.micrometer;

import dev.lanes.MetricsListener;
import java.util.concurrent.atomic.LongAdder;

/**
 * One open database as {@link MeterDirectory} keeps it: its gauges, the meters its events count
 * in now, and its activity for the busiest ranking.
 *
 * <p>Concurrency: {@link #meters} is written under the directory's bind lock and read by any
 * event without a lock (volatile); {@link #activity} is incremented by any event; {@link
 * #score} and {@link #rankedTagged} are read and written only under the directory's rank lock.
 */
final class OpenDatabase implements BusiestRanking.Candidate {
    final String name;
    final MetricsListener.DatabaseGauges gauges;
    /** Requests and commands since the last ranking. */
    final LongAdder activity = new LongAdder();
    /** Its own meters, or the shared ones; written under bindLock, read by any event. */
    volatile DatabaseMeters meters;
    // guarded by rankLock
    double score;
    // guarded by rankLock: whether it had meters of its own when the ranking began
    boolean rankedTagged;

    OpenDatabase(String name, MetricsListener.DatabaseGauges gauges) {
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

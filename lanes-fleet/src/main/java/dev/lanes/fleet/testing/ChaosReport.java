package dev.lanes.fleet.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a chaos run found: the writes and their outcomes, every violation of a guarantee, the
 * failover times by event, the pauses of planned moves, and the LOCAL losses.
 *
 * <p>Thread-safety: filled by one thread (the run), the lists synchronized for the probes.
 */
public final class ChaosReport {
    /** Failover times (kill to the tenant's first acknowledged write), in ms, by event. */
    final Map<String, List<Long>> failovers = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Each failover's {@link FailoverTimeline} table, by event. */
    final Map<String, String> timelines = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Tenants an event's probes never saw serve again, by event. */
    final Map<String, Integer> unserved = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Longest gap between a hot tenant's acknowledged writes across a planned move, in ms. */
    final List<Long> movePauses = Collections.synchronizedList(new ArrayList<>());
    /** Writes that failed (not acknowledged) while only planned moves ran. */
    long failedDuringMoves;
    /** What those writes were told (digits as N), and how many were told it. */
    final Map<String, Long> moveFailures = Collections.synchronizedMap(new LinkedHashMap<>());
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    final Map<ChaosLedger.Outcome, Long> outcomes = new LinkedHashMap<>();
    /** LOCAL: acknowledged writes missing at the end, and the oldest one's age at its event. */
    long localLosses;
    long maxLossAgeMillis;
    String durability = "";
    int tenants;
    long elapsedMillis;
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    /** Every guarantee that did not hold; empty when the run passed. */
    public List<String> violations() {
        return List.copyOf(violations);
    }

    /** Failover times in ms by event. */
    public Map<String, List<Long>> failovers() {
        synchronized (failovers) {
            Map<String, List<Long>> copy = new LinkedHashMap<>();
            failovers.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            return copy;
        }
    }

    /** Each failover's {@link FailoverTimeline#table()}, by event. */
    public Map<String, String> timelines() {
        synchronized (timelines) {
            return Map.copyOf(timelines);
        }
    }

    /** Tenants never served again within the probe bound, by event. */
    public Map<String, Integer> unserved() {
        return Map.copyOf(unserved);
    }

    /** Planned-move pauses in ms. */
    public List<Long> movePauses() {
        return List.copyOf(movePauses);
    }

    /** Writes not acknowledged while planned moves (no failure) ran. */
    public long failedDuringMoves() {
        return failedDuringMoves;
    }

    /** Acknowledged writes missing at the end (LOCAL only; REPLICATED counts them as violations). */
    public long localLosses() {
        return localLosses;
    }

    public long maxLossAgeMillis() {
        return maxLossAgeMillis;
    }

    /** Writes acknowledged. */
    public long acknowledged() {
        return outcomes.getOrDefault(ChaosLedger.Outcome.ACKED, 0L);
    }

    /** The p-th percentile (0-100) of {@code values}, nearest rank; -1 when empty. */
    public static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** A plain-text table of the run. */
    public String summary() {
        StringBuilder s = new StringBuilder();
        s.append(String.format("fleet chaos: %s, %d tenants, %.1f s%n", durability, tenants,
                elapsedMillis / 1000.0));
        s.append("writes: ").append(outcomes).append('\n');
        s.append(String.format("%-34s %8s %8s %8s %8s %9s%n", "failover (kill to serving)", "tenants",
                "p50 ms", "p99 ms", "max ms", "unserved"));
        failovers().forEach((event, times) -> s.append(String.format(
                "%-34s %8d %8d %8d %8d %9d%n", event, times.size(), percentile(times, 50),
                percentile(times, 99), percentile(times, 100), unserved.getOrDefault(event, 0))));
        synchronized (timelines) {
            timelines.forEach((event, table) -> s.append(event).append(", phases:")
                    .append(table.substring(table.indexOf("  phases") + "  phases".length())));
        }
        List<Long> pauses = movePauses();
        s.append(String.format("planned moves: %d hot-tenant moves, pause p50 %d ms, p99 %d ms,"
                + " max %d ms; %d writes not acknowledged during moves%n", pauses.size(),
                percentile(pauses, 50), percentile(pauses, 99), percentile(pauses, 100),
                failedDuringMoves));
        synchronized (moveFailures) {
            moveFailures.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                    .forEach(e -> s.append(String.format("  %6d x %s%n", e.getValue(),
                            e.getKey())));
        }
        s.append(String.format("acknowledged writes lost: %d (oldest %d ms before its event)%n",
                localLosses, maxLossAgeMillis));
        s.append("events: ").append(String.join("; ", events)).append('\n');
        s.append("violations: ").append(violations.isEmpty() ? "none" : violations.size() + "")
                .append('\n');
        violations.stream().limit(20).forEach(v -> s.append("  ").append(v).append('\n'));
        return s.toString();
    }
}

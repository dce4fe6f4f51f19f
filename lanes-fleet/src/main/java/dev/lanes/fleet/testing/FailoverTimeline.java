package dev.lanes.fleet.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a failover's time went, tenant by tenant, in ms from the disruption: when the node that
 * took the tenant learned it should (its watch event), claimed it in etcd, had its copy restored,
 * opened it, had the new epoch recorded as the tenant's replica, and served the first write (as
 * the client saw it). Read from the nodes' logs: each acquisition's line carries its end time and
 * its phases' lengths; the node processes log with a {@code HH:mm:ss.SSS} time first.
 *
 * <p>Thread-safety: immutable.
 */
public final class FailoverTimeline {
    private static final String TIME = "^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*";
    private static final Pattern SERVING = Pattern.compile(TIME + "fleet (\\S+): serving tenant"
            + " (\\S+) at epoch (\\d+) \\(([^;]*); queued (\\d+) ms, claim (\\d+) ms, files (\\d+)"
            + " ms, open (\\d+) ms\\)");
    private static final Pattern RECORDED = Pattern.compile(TIME + "fleet \\S+: tenant (\\S+)"
            + " epoch (\\d+) recorded as the replica .*");
    private static final long DAY = 86_400_000L;

    /**
     * One tenant's failover, in ms from the disruption, -1 where not seen.
     *
     * @param from where its copy came from ("from epoch N", "new")
     */
    public record Row(String tenant, String node, String from, long seen, long claimed,
            long restored, long opened, long recorded, long served) {}

    private final List<Row> rows;

    private FailoverTimeline(List<Row> rows) {
        this.rows = rows;
    }

    public List<Row> rows() {
        return rows;
    }

    /**
     * The first acquisition after {@code at} of each tenant of {@code served} (its first write
     * acknowledged, ms after {@code at}), from the node logs.
     */
    public static FailoverTimeline read(List<Path> logs, LocalTime at, Map<String, Long> served) {
        long origin = at.toNanoOfDay() / 1_000_000;
        Map<String, Row> first = new HashMap<>();
        Map<String, String> epochs = new HashMap<>();
        Map<String, Long> recorded = new HashMap<>();
        for (Path log : logs) {
            for (String line : lines(log)) {
                Matcher m = SERVING.matcher(line);
                if (m.matches()) {
                    long end = since(origin, m.group(1));
                    String tenant = m.group(3);
                    Row before = first.get(tenant);
                    if (end < 0 || !served.containsKey(tenant)
                            || (before != null && before.opened() <= end)) {
                        continue;
                    }
                    long open = end - Long.parseLong(m.group(9));
                    long claimed = open - Long.parseLong(m.group(8));
                    long seen = claimed - Long.parseLong(m.group(7)) - Long.parseLong(m.group(6));
                    first.put(tenant, new Row(tenant, m.group(2), m.group(5), seen, claimed, open,
                            end, -1, served.get(tenant)));
                    epochs.put(tenant, m.group(4));
                } else if ((m = RECORDED.matcher(line)).matches()) {
                    recorded.putIfAbsent(m.group(2) + "@" + m.group(3), since(origin, m.group(1)));
                }
            }
        }
        List<Row> out = new ArrayList<>();
        for (Row r : first.values()) {
            out.add(new Row(r.tenant(), r.node(), r.from(), r.seen(), r.claimed(), r.restored(),
                    r.opened(), recorded.getOrDefault(r.tenant() + "@" + epochs.get(r.tenant()),
                            -1L), r.served()));
        }
        out.sort(Comparator.comparingLong(Row::served));
        return new FailoverTimeline(List.copyOf(out));
    }

    /** Each tenant's line, then the p50 and p99 of each phase's length. */
    public String table() {
        StringBuilder s = new StringBuilder(String.format("  %-10s %-5s %-16s %7s %7s %8s %7s"
                + " %8s %7s%n", "tenant", "node", "copy", "seen", "claimed", "restored",
                "opened", "recorded", "served"));
        for (Row r : rows) {
            s.append(String.format("  %-10s %-5s %-16s %7d %7d %8d %7d %8d %7d%n", r.tenant(),
                    r.node(), r.from(), r.seen(), r.claimed(), r.restored(), r.opened(),
                    r.recorded(), r.served()));
        }
        s.append(String.format("  phases p50/p99 ms: lease expiry seen %s, waiting for a worker"
                + " and claiming %s, restoring %s, opening %s, replica recorded %s, first write"
                + " served %s%n", phase(Row::seen), phase(r -> r.claimed() - r.seen()),
                phase(r -> r.restored() - r.claimed()), phase(r -> r.opened() - r.restored()),
                phase(r -> r.recorded() < 0 ? -1 : r.recorded() - r.opened()),
                phase(r -> r.served() - r.opened())));
        return s.toString();
    }

    private String phase(ToLongFunction<Row> length) {
        List<Long> values = new ArrayList<>();
        for (Row r : rows) {
            long v = length.applyAsLong(r);
            if (v >= 0) {
                values.add(v);
            }
        }
        return ChaosReport.percentile(values, 50) + "/" + ChaosReport.percentile(values, 99);
    }

    /** ms from {@code origin} (ms of the day) to a log time, across midnight. */
    private static long since(long origin, String time) {
        long t = LocalTime.parse(time).toNanoOfDay() / 1_000_000 - origin;
        return t < -DAY / 2 ? t + DAY : t;
    }

    private static List<String> lines(Path log) {
        try {
            return Files.exists(log) ? List.of(new String(Files.readAllBytes(log),
                    StandardCharsets.ISO_8859_1).split("\n")) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

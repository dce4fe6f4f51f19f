package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A synthetic {@link BenchReport} with every scenario, for the report tests: realistic figures,
 * a baseline that completed nothing (rtw), a mixed run with latencies by kind and a footprint
 * (tenants), a healthy soak ({@link SoakFixtures#healthy()}), and labels that need escaping.
 */
final class ReportFixtures {
    /** Throughput charts: one per scenario. */
    static final int BAR_CHARTS = 4;
    /** Latency charts: one per configuration (write 2, read 4, rtw 1, tenants 1). */
    static final int PERCENTILE_CHARTS = 8;
    /** Bars: one per system per configuration, and all/read/write for tenants. */
    static final int BARS = 4 + 8 + 2 + 3;
    /** Latency lines: as the bars, less the rtw baseline that has no latency. */
    static final int SERIES = 4 + 8 + 1 + 3;
    /** Soak charts: one per series, each with one line of samples (class {@code series}). */
    static final int SOAK_CHARTS = SoakSeries.values().length;
    /** Every chart of the page. */
    static final int CHARTS = BAR_CHARTS + PERCENTILE_CHARTS + SOAK_CHARTS;

    private ReportFixtures() {}

    static BenchReport sample() {
        List<RunResult> runs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        for (int threads : new int[] {64, 1}) {
            RunResult lanes = run(Scenario.WRITE, "", "lanes", threads, 120_000, 30, 900, Map.of());
            RunResult base = run(Scenario.WRITE, "", threads == 1 ? "raw" : "hikari", threads,
                    60_000, 15, 4_000, Map.of("SQLITE_BUSY", 12L));
            runs.add(lanes);
            runs.add(base);
            comparisons.add(Comparison.of(lanes, base));
        }
        for (int threads : new int[] {1, 8}) {
            for (String variant : List.of("alone", "with writer")) {
                RunResult lanes = run(Scenario.READ, variant, "lanes", threads, 400_000, 3, 40,
                        Map.of());
                RunResult raw = run(Scenario.READ, variant, "raw", threads, 500_000, 2.5, 30,
                        Map.of());
                runs.add(lanes);
                runs.add(raw);
                comparisons.add(Comparison.of(lanes, raw));
            }
        }
        RunResult rtwLanes = run(Scenario.RTW, "", "lanes", 16, 15_000, 800, 5_000, Map.of());
        RunResult rtwHikari = new RunResult(Scenario.RTW, "", Synchronous.NORMAL, "hikari", 16, 1,
                5, 0, 0, new Latency(0, 0, 0, 0, 0, 0), Map.of(),
                Map.of("SQLITE_BUSY", 9_000L, "SQLITE_BUSY_SNAPSHOT", 50L), null, null, 0.4,
                new Consistency("counter value", 0, 0), null);
        runs.add(rtwLanes);
        runs.add(rtwHikari);
        comparisons.add(Comparison.of(rtwLanes, rtwHikari));

        RunResult tenants = new RunResult(Scenario.TENANTS, "1,000 databases", Synchronous.NORMAL,
                "lanes", 16, 1, 5, 300_000, 60_000, latency(6, 8_000), Map.of(
                        "read", latency(4, 8_500), "write", latency(15, 50)),
                Map.of(), null, cpuPerOperation(60_000), 0.9,
                new Consistency("rows in events, all tenants", 10, 10),
                new TenantFootprint(1000, 100, 0.8, 0.8, 64, 64, 2100, 3000, 20_000, 9_500, 10_000_000, 60_000_000,
                        64_000_000, 96_000_000, 300_000_000, 500_000_000, 3.5));
        runs.add(tenants);

        List<BenchReport.ScenarioSummary> scenarios = new ArrayList<>();
        for (Scenario s : Scenario.values()) {
            scenarios.add(new BenchReport.ScenarioSummary(s, s.title(), s.unit(),
                    "what " + s.id() + " compares <with> \"quotes\" & ampersands"));
        }
        BenchReport.Settings settings = new BenchReport.Settings(List.of(Scenario.values()), null,
                5, 1, 1, null, 1000, null);
        return new BenchReport(environment(), settings, scenarios, runs, comparisons,
                List.of(SoakFixtures.healthy()));
    }

    /** The machine the fixtures ran on. */
    static BenchReport.Environment environment() {
        return new BenchReport.Environment(
                "17.0.15 (OpenJDK 64-Bit Server VM, Debian)", "Linux 6.1 amd64", 2, "AMD EPYC",
                24L << 30, "3.53.4", "3.53.4.0", "/tmp/lanes-bench-1", "ext4",
                "2025-01-01T00:00:00Z");
    }

    /**
     * A run at NORMAL of 5 s with 1,000 latencies: p90 twice p50, p99.9 three times p99, max ten
     * times p99; a writer of 20,000/s beside reads "with writer"; one processor's worth of CPU
     * time of the two, so a request costs {@code 1,000,000 / perSecond} CPU microseconds.
     */
    static RunResult run(Scenario scenario, String variant, String system, int threads,
            double perSecond, double p50, double p99, Map<String, Long> errors) {
        return new RunResult(scenario, variant, Synchronous.NORMAL, system, threads, 1, 5,
                (long) (perSecond * 5), perSecond, latency(p50, p99), Map.of(), errors,
                variant.equals("with writer") ? 20_000.0 : null, cpuPerOperation(perSecond), 0.5,
                null, null);
    }

    /** The CPU microseconds per request of a process that keeps one processor busy. */
    static Double cpuPerOperation(double perSecond) {
        return perSecond > 0 ? 1e6 / perSecond : null;
    }

    static Latency latency(double p50, double p99) {
        return new Latency(1000, p50, p50 * 2, p99, p99 * 3, p99 * 10);
    }
}

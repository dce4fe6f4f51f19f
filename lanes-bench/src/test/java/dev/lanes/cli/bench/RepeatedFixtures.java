package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A bench with {@code --repeat 3} whose runs return fixed figures instead of measuring: the real
 * {@link BenchSuite} decides the order and aggregates, the real table and reports render, and no
 * database is opened. The figures are chosen so that every aggregate is known by hand and differs
 * from the wrong ways of computing it (a ratio of medians, a mean, the last repetition):
 *
 * <pre>
 * write, 64 threads   lanes  ops/s 100,000 130,000 120,000  p50 30 20 25  p99 900 1,000 800
 *                     hikari ops/s  50,000  40,000  60,000  p50 15 30 25  p99 4,000 2,000 8,000
 *                     hikari SQLITE_BUSY 3, 0, 2; repetition 2 lost a row (10 acknowledged,
 *                     9 found)
 *   throughput ratios 2.00 3.25 2.00 (median 2.00; the ratio of the medians would be 2.40)
 *   p50 ratios 0.50 1.50 1.00 (median 1.00); p99 ratios 4.44 2.00 10.00 (median 4.44)
 * write, 1 thread     lanes ops/s 10,000 11,000 9,000; raw 10,000, 0 (none completed), 12,000
 *   throughput ratios 1.00 n/a 0.75 (median of the two defined: 0.875)
 * tenants             lanes all/read/write with a footprint per repetition; raw
 * </pre>
 */
final class RepeatedFixtures {
    static final int REPEAT = 3;

    private RepeatedFixtures() {}

    /**
     * The options of the fixture bench: write and tenants, 1 s + 5 s per run, {@code --repeat
     * repeat} (at most {@value #REPEAT}: the first repetitions' figures are used).
     */
    static BenchOptions options(int repeat) {
        return new BenchOptions(List.of(Scenario.WRITE, Scenario.TENANTS), null,
                Duration.ofSeconds(5), Duration.ofSeconds(1), repeat, List.of(Synchronous.NORMAL),
                1000, null, null, null, null, null,
                BenchOptions.DEFAULT_SAMPLE_INTERVAL);
    }

    static ScriptedScenario write() {
        ScriptedScenario write = new ScriptedScenario(Scenario.WRITE, "64 writers vs HikariCP");
        write.configuration(
                List.of(writeRun("lanes", 64, 100_000, 30, 900, Map.of(), 10),
                        writeRun("lanes", 64, 130_000, 20, 1_000, Map.of(), 10),
                        writeRun("lanes", 64, 120_000, 25, 800, Map.of(), 10)),
                List.of(writeRun("hikari", 64, 50_000, 15, 4_000, Map.of("SQLITE_BUSY", 3L), 10),
                        writeRun("hikari", 64, 40_000, 30, 2_000, Map.of(), 9),
                        writeRun("hikari", 64, 60_000, 25, 8_000, Map.of("SQLITE_BUSY", 2L), 10)));
        RunResult nothing = new RunResult(Scenario.WRITE, "", Synchronous.NORMAL, "raw", 1, 1, 5, 0,
                0, new Latency(0, 0, 0, 0, 0, 0), Map.of(), Map.of(), null, null, 0.5,
                new Consistency("rows in bench", 0, 0), null);
        write.configuration(
                List.of(writeRun("lanes", 1, 10_000, 10, 15, Map.of(), 10),
                        writeRun("lanes", 1, 11_000, 10, 15, Map.of(), 10),
                        writeRun("lanes", 1, 9_000, 10, 15, Map.of(), 10)),
                List.of(writeRun("raw", 1, 10_000, 10, 15, Map.of(), 10), nothing,
                        writeRun("raw", 1, 12_000, 10, 15, Map.of(), 10)));
        return write;
    }

    static ScriptedScenario tenants() {
        ScriptedScenario tenants = new ScriptedScenario(Scenario.TENANTS, "1,000 tenant databases");
        List<RunResult> lanes = new ArrayList<>();
        List<RunResult> raw = new ArrayList<>();
        double[] all = {60_000, 50_000, 70_000};
        for (int i = 0; i < REPEAT; i++) {
            // heap per database: 10 KiB, 20 KiB, 30 KiB
            TenantFootprint footprint = new TenantFootprint(1000, 100, 0.8, 0.8, 60 + i, 64,
                    2100, 0, 20_000, 9_500, 10_000_000, 10_000_000 + (i + 1) * 10_240_000L,
                    64_000_000, 64_000_000, 300_000_000, 400_000_000, 3.5);
            lanes.add(new RunResult(Scenario.TENANTS, "1,000 databases", Synchronous.NORMAL,
                    "lanes", 16, 1, 5, (long) all[i] * 5, all[i], ReportFixtures.latency(6, 800),
                    // sorted by kind, as a measurement hands them over
                    new TreeMap<>(Map.of(
                            "read", new Latency((long) (all[i] * 4), 4 + i, 8, 500, 900, 5_000),
                            "write", new Latency((long) all[i], 15 + i, 30, 1_100, 2_000, 9_000))),
                    Map.of(), null, ReportFixtures.cpuPerOperation(all[i]), 0.5,
                    new Consistency("rows in events, all tenants", 10, 10), footprint));
            raw.add(ReportFixtures.run(Scenario.TENANTS, "1,000 databases", "raw", 16, 20_000,
                    300, 20_000, Map.of()));
        }
        tenants.configuration(lanes, raw);
        return tenants;
    }

    /**
     * Runs the fixture bench with {@code --repeat 3} through the real suite, telling {@code
     * listener} every step.
     */
    static BenchReport run(BenchListener listener, ScriptedScenario... scenarios) throws Exception {
        return run(REPEAT, listener, scenarios);
    }

    /** Runs the fixture bench with {@code --repeat repeat}. */
    static BenchReport run(int repeat, BenchListener listener, ScriptedScenario... scenarios)
            throws Exception {
        return new BenchSuite(options(repeat), List.of(scenarios))
                .run(ReportFixtures.environment(), listener);
    }

    /** The fixture bench's report. */
    static BenchReport report() throws Exception {
        return run(new BenchListener() {}, write(), tenants());
    }

    private static RunResult writeRun(String system, int threads, double perSecond, double p50,
            double p99, Map<String, Long> errors, long found) {
        return new RunResult(Scenario.WRITE, "", Synchronous.NORMAL, system, threads, 1, 5,
                (long) (perSecond * 5), perSecond, ReportFixtures.latency(p50, p99), Map.of(),
                errors, null, ReportFixtures.cpuPerOperation(perSecond), 0.5,
                new Consistency("rows in bench", 10, found), null);
    }

    /**
     * A scenario of given configurations, each side of each returning its figures repetition by
     * repetition, and recording the order in which the suite asked for them.
     */
    static final class ScriptedScenario implements ScenarioBench {
        private final Scenario scenario;
        private final String description;
        private final List<List<RunResult>> lanes = new ArrayList<>();
        private final List<List<RunResult>> baselines = new ArrayList<>();
        /** "lanes/64 #1", "hikari/64 #1", …: each run in the order it was made. */
        final List<String> calls = new ArrayList<>();

        ScriptedScenario(Scenario scenario, String description) {
            this.scenario = scenario;
            this.description = description;
        }

        void configuration(List<RunResult> ofLanes, List<RunResult> ofBaseline) {
            lanes.add(ofLanes);
            baselines.add(ofBaseline);
        }

        /** The figures of Lanes' repetitions in the first configuration. */
        List<RunResult> runsOfLanes() {
            return lanes.get(0);
        }

        @Override
        public Scenario scenario() {
            return scenario;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public int plannedComparisons() {
            return lanes.size();
        }

        @Override
        public void run(Sink sink) throws Exception {
            for (int c = 0; c < lanes.size(); c++) {
                List<RunResult> ofLanes = lanes.get(c);
                List<RunResult> ofBaseline = baselines.get(c);
                sink.compare(rep -> side(sink, ofLanes, rep), rep -> side(sink, ofBaseline, rep));
            }
        }

        private RunResult side(Sink sink, List<RunResult> runs, int repetition) {
            RunResult run = runs.get(repetition - 1);
            calls.add(run.system() + "/" + run.threads() + " #" + repetition);
            sink.runStarting(scenario.id() + ": " + run.system() + ", " + run.threads()
                    + (run.threads() == 1 ? " thread, " : " threads, ") + run.synchronous());
            return run;
        }
    }
}

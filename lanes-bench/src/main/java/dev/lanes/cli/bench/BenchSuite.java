package dev.lanes.cli.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The plan of a bench: the chosen scenarios in order, each making its runs on fresh database
 * files in the scratch directory. It gathers what they measured into a {@link BenchReport} and
 * tells a {@link BenchListener} about every step as it happens.
 *
 * <p>It is also the one place that decides the order of runs within a configuration: with
 * {@code --repeat N}, Lanes and its baseline alternate, {@code lanes 1, baseline 1, lanes 2,
 * baseline 2, ...}, so that a slow drift of a shared machine (another job starting, a cache
 * filling) falls on both sides alike, and repetition i of one is compared with repetition i of
 * the other, its neighbour in time ({@link Comparison#of(List, List)}).
 *
 * <p>A soak ({@link SoakScenario}) compares nothing and is not repeated ({@link BenchOptions}
 * refuses {@code --repeat} with it): its samples and verdict pass through to the listener and
 * into the report's {@code soaks}.
 */
final class BenchSuite {
    private final BenchOptions options;
    private final List<ScenarioBench> scenarios;

    BenchSuite(BenchOptions options, Path directory) {
        this(options, benchesOf(options, directory));
    }

    /** A suite of the given benches; package-private for tests, which script their runs. */
    BenchSuite(BenchOptions options, List<ScenarioBench> scenarios) {
        this.options = options;
        this.scenarios = List.copyOf(scenarios);
    }

    private static List<ScenarioBench> benchesOf(BenchOptions options, Path directory) {
        List<ScenarioBench> benches = new ArrayList<>();
        for (Scenario scenario : options.scenarios()) {
            benches.add(benchOf(scenario, options, directory));
        }
        return benches;
    }

    private static ScenarioBench benchOf(Scenario scenario, BenchOptions options, Path directory) {
        switch (scenario) {
            case WRITE:
                return new WriteScenario(options, directory);
            case READ:
                return new ReadScenario(options, directory);
            case RTW:
                return new ReadThenWriteScenario(options, directory);
            case TENANTS:
                return new TenantScenario(options, directory);
            case DQLITE:
                return new DqliteScenario(options, directory);
            case SOAK:
                return new SoakScenario(options, directory);
            case FLEET:
                return new FleetScenario(options, directory);
            case JDBC:
                return new JdbcScenario(options, directory);
            case VT:
                return new VirtualThreadScenario(options, directory);
            default:
                throw new IllegalArgumentException("no bench for scenario " + scenario);
        }
    }

    /**
     * How many measured runs the bench makes in all: two per comparison, per repetition, and one
     * per soak.
     */
    int plannedRuns() {
        return scenarios.stream().mapToInt(ScenarioBench::plannedComparisons).sum() * 2
                * options.repeat()
                + scenarios.stream().mapToInt(ScenarioBench::plannedSoaks).sum();
    }

    /** Runs every scenario, telling {@code listener} about each step as soon as it happens. */
    BenchReport run(BenchReport.Environment environment, BenchListener listener) throws Exception {
        List<RunResult> runs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<SoakResult> soaks = new ArrayList<>();
        List<BenchReport.ScenarioSummary> summaries = new ArrayList<>();
        listener.benchStarting(plannedRuns());
        for (ScenarioBench bench : scenarios) {
            List<Comparison> ofScenario = new ArrayList<>();
            summaries.add(BenchReport.ScenarioSummary.of(bench));
            listener.scenarioStarting(bench.scenario(), bench.description());
            Scenario scenario = bench.scenario();
            bench.run(new Interleaved(listener, runs, ofScenario, soaks,
                    options.warmupFor(scenario).plus(options.durationFor(scenario))));
            comparisons.addAll(ofScenario);
            listener.scenarioFinished(bench.scenario(), ofScenario);
        }
        return new BenchReport(environment, BenchReport.Settings.of(options), summaries, runs,
                comparisons, soaks);
    }

    /**
     * Makes a scenario's comparisons, {@code --repeat} times each side, interleaved, and passes a
     * soak's steps on. Used by the bench's one thread only; {@link #repetition} is that of the
     * run being measured, for its label.
     */
    private final class Interleaved implements ScenarioBench.Sink {
        private final BenchListener listener;
        private final List<RunResult> runs;
        private final List<Comparison> comparisons;
        private final List<SoakResult> soaks;
        /** How long one of the scenario's runs takes: its warm-up and measured time. */
        private final Duration expected;
        private int repetition;

        Interleaved(BenchListener listener, List<RunResult> runs, List<Comparison> comparisons,
                List<SoakResult> soaks, Duration expected) {
            this.listener = listener;
            this.runs = runs;
            this.comparisons = comparisons;
            this.soaks = soaks;
            this.expected = expected;
        }

        @Override
        public void soakStarting(SoakResult.Setup setup) {
            listener.soakStarting(setup);
        }

        @Override
        public void sampled(SoakSample sample) {
            listener.soakSampled(sample);
        }

        @Override
        public void soaked(SoakResult result) {
            soaks.add(result);
            listener.soakFinished(result);
        }

        @Override
        public void runStarting(String label) {
            int repeat = options.repeat();
            listener.runStarting(
                    repeat == 1 ? label : label + ", " + Repetitions.label(repetition, repeat),
                    expected);
        }

        @Override
        public void status(String text) {
            listener.status(text);
        }

        @Override
        public void compare(ScenarioBench.Side lanes, ScenarioBench.Side baseline)
                throws Exception {
            int repeat = options.repeat();
            List<RunResult> ofLanes = new ArrayList<>(repeat);
            List<RunResult> ofBaseline = new ArrayList<>(repeat);
            for (int i = 1; i <= repeat; i++) {
                ofLanes.add(measure(lanes, i));
                if (i == repeat) {
                    // Lanes' rows can show while the baseline's last run is still to come
                    listener.systemFinished(List.copyOf(ofLanes));
                }
                ofBaseline.add(measure(baseline, i));
            }
            listener.systemFinished(List.copyOf(ofBaseline));
            comparisons.add(Comparison.of(ofLanes, ofBaseline));
        }

        private RunResult measure(ScenarioBench.Side side, int i) throws Exception {
            repetition = i;
            RunResult run = side.run(i).inRepetition(i);
            runs.add(run);
            listener.runFinished(run);
            return run;
        }
    }
}

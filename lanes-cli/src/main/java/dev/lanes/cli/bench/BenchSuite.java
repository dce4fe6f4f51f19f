package dev.lanes.cli.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The plan of a bench: the chosen scenarios in order, each making its runs on fresh database
 * files in the scratch directory. It gathers what they measured into a {@link BenchReport} and
 * tells a {@link BenchListener} about every step as it happens.
 */
final class BenchSuite {
    private final BenchOptions options;
    private final List<ScenarioBench> scenarios;

    BenchSuite(BenchOptions options, Path directory) {
        this.options = options;
        this.scenarios = new ArrayList<>();
        for (Scenario scenario : options.scenarios()) {
            scenarios.add(benchOf(scenario, options, directory));
        }
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
            default:
                throw new IllegalArgumentException("no bench for scenario " + scenario);
        }
    }

    /** How many measured runs the bench makes in all. */
    int plannedRuns() {
        return scenarios.stream().mapToInt(ScenarioBench::plannedRuns).sum();
    }

    /** Runs every scenario, telling {@code listener} about each step as soon as it happens. */
    BenchReport run(BenchReport.Environment environment, BenchListener listener) throws Exception {
        List<RunResult> runs = new ArrayList<>();
        List<Comparison> comparisons = new ArrayList<>();
        List<BenchReport.ScenarioSummary> summaries = new ArrayList<>();
        listener.benchStarting(plannedRuns());
        for (ScenarioBench bench : scenarios) {
            List<Comparison> ofScenario = new ArrayList<>();
            summaries.add(BenchReport.ScenarioSummary.of(bench));
            listener.scenarioStarting(bench.scenario(), bench.description());
            bench.run(new ScenarioBench.Sink() {
                @Override
                public void runStarting(String label) {
                    listener.runStarting(label, options.warmup().plus(options.duration()));
                }

                @Override
                public void status(String text) {
                    listener.status(text);
                }

                @Override
                public void runFinished(RunResult run) {
                    runs.add(run);
                    listener.runFinished(run);
                }

                @Override
                public void compared(Comparison comparison) {
                    ofScenario.add(comparison);
                }
            });
            comparisons.addAll(ofScenario);
            listener.scenarioFinished(bench.scenario(), ofScenario);
        }
        return new BenchReport(
                environment, BenchReport.Settings.of(options), summaries, runs, comparisons);
    }
}

package dev.lanes.cli.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * What {@link Progress#around} returns: every step goes to the progress display first, then to
 * the output through {@link Progress#print}, so the table never mixes with a half-drawn bar.
 * Called by the bench's one driving thread; it keeps no state of its own.
 */
final class ProgressRouting implements BenchListener {
    private final Progress progress;
    private final BenchListener output;

    ProgressRouting(Progress progress, BenchListener output) {
        this.progress = progress;
        this.output = output;
    }

    private void route(Consumer<BenchListener> step) {
        step.accept(progress);
        progress.print(() -> step.accept(output));
    }

    @Override
    public void benchStarting(int runs) {
        route(l -> l.benchStarting(runs));
    }

    @Override
    public void scenarioStarting(Scenario scenario, String description) {
        route(l -> l.scenarioStarting(scenario, description));
    }

    @Override
    public void runStarting(String label, Duration expected) {
        route(l -> l.runStarting(label, expected));
    }

    @Override
    public void status(String text) {
        route(l -> l.status(text));
    }

    @Override
    public void runFinished(RunResult run) {
        route(l -> l.runFinished(run));
    }

    @Override
    public void systemFinished(List<RunResult> repetitions) {
        route(l -> l.systemFinished(repetitions));
    }

    @Override
    public void soakStarting(SoakResult.Setup setup) {
        route(l -> l.soakStarting(setup));
    }

    @Override
    public void soakSampled(SoakSample sample) {
        route(l -> l.soakSampled(sample));
    }

    @Override
    public void soakFinished(SoakResult result) {
        route(l -> l.soakFinished(result));
    }

    @Override
    public void scenarioFinished(Scenario scenario, List<Comparison> comparisons) {
        route(l -> l.scenarioFinished(scenario, comparisons));
    }
}

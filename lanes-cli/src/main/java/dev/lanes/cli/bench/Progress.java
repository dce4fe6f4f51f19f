package dev.lanes.cli.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;

/**
 * Shows how far a bench has got while it runs: a redrawn bar on a terminal ({@link ProgressBar}),
 * plain lines elsewhere ({@link ProgressLines}), so that a log or a pipe gets no control
 * characters. It also decides how the bench's printed output and its own display share the
 * screen: {@link #around} routes the table through {@link #print}.
 */
interface Progress extends BenchListener, AutoCloseable {

    /**
     * The display for this process: a bar on {@code out} when the JVM has a console (standard
     * input and output are a terminal), else lines on {@code err}, away from the results.
     */
    static Progress forConsole(boolean console, PrintWriter out, PrintWriter err) {
        return console ? new ProgressBar(out) : new ProgressLines(err);
    }

    /** Prints what {@code printing} prints without it mixing with the progress display. */
    void print(Runnable printing);

    /** Stops and clears the display; idempotent. */
    @Override
    void close();

    /**
     * A listener that tells this display every step, and {@code output} (the table) what it
     * prints, through {@link #print}.
     */
    default BenchListener around(BenchListener output) {
        Progress progress = this;
        return new BenchListener() {
            @Override
            public void benchStarting(int runs) {
                progress.benchStarting(runs);
                progress.print(() -> output.benchStarting(runs));
            }

            @Override
            public void scenarioStarting(Scenario scenario, String description) {
                progress.scenarioStarting(scenario, description);
                progress.print(() -> output.scenarioStarting(scenario, description));
            }

            @Override
            public void runStarting(String label, Duration expected) {
                progress.runStarting(label, expected);
                progress.print(() -> output.runStarting(label, expected));
            }

            @Override
            public void status(String text) {
                progress.status(text);
                progress.print(() -> output.status(text));
            }

            @Override
            public void runFinished(RunResult run) {
                progress.runFinished(run);
                progress.print(() -> output.runFinished(run));
            }

            @Override
            public void systemFinished(List<RunResult> repetitions) {
                progress.systemFinished(repetitions);
                progress.print(() -> output.systemFinished(repetitions));
            }

            @Override
            public void soakStarting(SoakResult.Setup setup) {
                progress.soakStarting(setup);
                progress.print(() -> output.soakStarting(setup));
            }

            @Override
            public void soakSampled(SoakSample sample) {
                progress.soakSampled(sample);
                progress.print(() -> output.soakSampled(sample));
            }

            @Override
            public void soakFinished(SoakResult result) {
                progress.soakFinished(result);
                progress.print(() -> output.soakFinished(result));
            }

            @Override
            public void scenarioFinished(Scenario scenario, List<Comparison> comparisons) {
                progress.scenarioFinished(scenario, comparisons);
                progress.print(() -> output.scenarioFinished(scenario, comparisons));
            }
        };
    }
}

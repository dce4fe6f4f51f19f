package dev.lanes.cli.bench;

import java.time.Duration;
import java.util.List;

/**
 * Told what a bench is doing while it runs, so that it can be shown as it happens: the table
 * prints a system's rows as soon as its runs in a configuration are done, the progress display
 * moves on each run's start. Callbacks come from the thread running the bench, in order.
 */
interface BenchListener {

    /** The bench is about to run {@code runs} measured runs in all. */
    default void benchStarting(int runs) {}

    /** A scenario begins; {@code description} says what its runs compare. */
    default void scenarioStarting(Scenario scenario, String description) {}

    /** A measured run begins now and should take about {@code expected}. */
    default void runStarting(String label, Duration expected) {}

    /** Work between runs that takes a while (creating tenant databases): {@code text} says what. */
    default void status(String text) {}

    /** A run finished with {@code run}: every repetition, as soon as it is done. */
    default void runFinished(RunResult run) {}

    /**
     * One system's runs in one configuration are all done: {@code repetitions}, in order, one
     * per {@code --repeat} (so one when the bench does not repeat). It follows the last of them's
     * {@link #runFinished}.
     */
    default void systemFinished(List<RunResult> repetitions) {}

    /** A soak's databases are open and its load begins, as {@code setup} says. */
    default void soakStarting(SoakResult.Setup setup) {}

    /** A soak took {@code sample}: every few seconds while it runs. */
    default void soakSampled(SoakSample sample) {}

    /** A soak ended with {@code result}, its verdict among it. */
    default void soakFinished(SoakResult result) {}

    /** A scenario finished; {@code comparisons} are its ratios against the baselines. */
    default void scenarioFinished(Scenario scenario, List<Comparison> comparisons) {}
}

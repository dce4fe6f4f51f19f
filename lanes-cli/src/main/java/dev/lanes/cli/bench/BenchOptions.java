package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * What one {@code lanes bench} invocation runs, validated at once with messages that name the
 * option.
 *
 * @param scenarios the scenarios to run, in order, without repeats
 * @param threads the threads of every scenario's concurrent runs, or null for each scenario's
 *     own default ({@link Scenario#defaultThreads()})
 * @param duration how long each run is measured
 * @param warmup how long each run works, unmeasured, before its measurement starts
 * @param repeat how many times each configuration runs, Lanes and its baseline interleaved
 * @param synchronous the synchronous levels every scenario runs at, in order, without repeats; or
 *     null for each scenario's own default ({@link Scenario#defaultSynchronous()})
 * @param databases the tenant databases of the tenants scenario
 * @param dir where the scratch directory of database files goes; {@code null} for java.io.tmpdir
 * @param json where to write the results as JSON; {@code null} for nowhere
 * @param report where to write the HTML report; {@code null} for nowhere
 */
record BenchOptions(
        List<Scenario> scenarios,
        Integer threads,
        Duration duration,
        Duration warmup,
        int repeat,
        List<Synchronous> synchronous,
        int databases,
        Path dir,
        Path json,
        Path report) {

    /** The tenant databases when {@code --databases} is not given. */
    static final int DEFAULT_DATABASES = 1000;

    BenchOptions {
        if (scenarios == null || scenarios.isEmpty()) {
            throw new IllegalArgumentException(
                    "--scenario needs at least one of write, read, rtw, tenants, jdbc");
        }
        scenarios = List.copyOf(new LinkedHashSet<>(scenarios));
        if (threads != null && threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, was " + threads);
        }
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("--duration must be positive, was " + duration);
        }
        Objects.requireNonNull(warmup, "warmup");
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must not be negative, was " + warmup);
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, was " + repeat);
        }
        if (synchronous != null) {
            if (synchronous.isEmpty()) {
                throw new IllegalArgumentException(
                        "--synchronous needs at least one level, e.g. NORMAL,FULL");
            }
            // "NORMAL,NORMAL" would only run the same thing twice
            synchronous = List.copyOf(new LinkedHashSet<>(synchronous));
        }
        if (databases < 1) {
            throw new IllegalArgumentException("--databases must be at least 1, was " + databases);
        }
    }

    /** The threads of {@code scenario}'s concurrent runs. */
    int threadsFor(Scenario scenario) {
        return threads != null ? threads : scenario.defaultThreads();
    }

    /** The synchronous levels {@code scenario} runs at. */
    List<Synchronous> synchronousFor(Scenario scenario) {
        return synchronous != null ? synchronous : scenario.defaultSynchronous();
    }
}

package dev.lanes.cli.bench;

import dev.lanes.CheckpointMode;
import dev.lanes.DatabaseOptions;
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
 * @param duration how long each run is measured, or null for each scenario's own default ({@link
 *     Scenario#defaultDuration()}: 5 s, a soak 10 min)
 * @param warmup how long each comparison run works, unmeasured, before its measurement starts (a
 *     soak has none: its verdict reads only the second half of its samples)
 * @param repeat how many times each configuration runs, Lanes and its baseline interleaved; 1
 *     whenever the soak runs, which runs once
 * @param synchronous the synchronous levels every scenario runs at, in order, without repeats; or
 *     null for each scenario's own default ({@link Scenario#defaultSynchronous()})
 * @param databases the databases of the tenants and soak scenarios
 * @param checkpoint the checkpoint mode of every database Lanes opens in the comparing
 *     scenarios ({@link #lanesDatabase()}), or null for Lanes' default (which follows the
 *     synchronous level); the soak runs its own modes
 * @param dir where the scratch directory of database files goes; {@code null} for java.io.tmpdir
 * @param json where to write the results as JSON; {@code null} for nowhere
 * @param report where to write the HTML report; {@code null} for nowhere
 * @param markdown where to write the Markdown results section; {@code null} for nowhere
 * @param sampleInterval how often a soak samples ({@link #DEFAULT_SAMPLE_INTERVAL}; shorter only
 *     in tests)
 * @param writers the writer counts of the write scenario ({@code --writers}), in order, without
 *     repeats; or null for its usual two: {@code threads} (against HikariCP and SQLite's C loop)
 *     and a lone writer (against raw JDBC)
 */
record BenchOptions(
        List<Scenario> scenarios,
        Integer threads,
        Duration duration,
        Duration warmup,
        int repeat,
        List<Synchronous> synchronous,
        int databases,
        CheckpointMode checkpoint,
        Path dir,
        Path json,
        Path report,
        Path markdown,
        Duration sampleInterval,
        List<Integer> writers) {

    /** The tenant (and soak) databases when {@code --databases} is not given. */
    static final int DEFAULT_DATABASES = 1000;
    /** How often a soak samples when {@code --sample-interval} is not given. */
    static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(10);
    /**
     * The fewest samples a soak takes: its fit reads the second half of them, which needs two
     * points at least.
     */
    static final int MIN_SOAK_SAMPLES = 4;

    BenchOptions {
        if (scenarios == null || scenarios.isEmpty()) {
            throw new IllegalArgumentException(
                    "--scenario needs at least one of write, read, rtw, tenants, jdbc, vt,"
                            + " dqlite, soak, fleet");
        }
        scenarios = List.copyOf(new LinkedHashSet<>(scenarios));
        if (threads != null && threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, was " + threads);
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
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
        Objects.requireNonNull(sampleInterval, "sampleInterval");
        if (sampleInterval.isNegative() || sampleInterval.isZero()) {
            throw new IllegalArgumentException(
                    "--sample-interval must be positive, was " + sampleInterval);
        }
        if (writers != null) {
            if (writers.isEmpty()) {
                throw new IllegalArgumentException(
                        "--writers needs at least one writer count, e.g. 1,16,64,1024");
            }
            for (int n : writers) {
                if (n < 1) {
                    throw new IllegalArgumentException(
                            "--writers must all be at least 1, was " + writers);
                }
            }
            writers = List.copyOf(new LinkedHashSet<>(writers));
        }
        if (scenarios.contains(Scenario.SOAK)) {
            checkSoak(repeat, duration, sampleInterval);
        }
    }

    /** A soak runs once, over at least {@link #MIN_SOAK_SAMPLES} samples. */
    private static void checkSoak(int repeat, Duration duration, Duration sampleInterval) {
        if (repeat != 1) {
            throw new IllegalArgumentException("--repeat does not apply to the soak scenario:"
                    + " a soak runs once and judges its own samples over time; drop --repeat "
                    + repeat + ", or run the other scenarios without soak");
        }
        Duration soak = duration != null ? duration : Scenario.SOAK.defaultDuration();
        Duration shortest = sampleInterval.multipliedBy(MIN_SOAK_SAMPLES - 1);
        if (soak.compareTo(shortest) < 0) {
            throw new IllegalArgumentException("--duration of a soak must cover at least "
                    + (MIN_SOAK_SAMPLES - 1) + " sample intervals of "
                    + ReportTable.human(sampleInterval) + " (" + ReportTable.human(shortest)
                    + "), was " + ReportTable.human(soak));
        }
    }

    /** The options without {@code --writers}: the write scenario's usual writer counts. */
    BenchOptions(List<Scenario> scenarios, Integer threads, Duration duration, Duration warmup,
            int repeat, List<Synchronous> synchronous, int databases, CheckpointMode checkpoint,
            Path dir, Path json, Path report, Path markdown, Duration sampleInterval) {
        this(scenarios, threads, duration, warmup, repeat, synchronous, databases, checkpoint,
                dir, json, report, markdown, sampleInterval, null);
    }

    /**
     * The options every database Lanes opens in a comparing scenario starts from: the defaults
     * but for {@code --checkpoint}; each scenario adds its own settings.
     */
    DatabaseOptions.Builder lanesDatabase() {
        DatabaseOptions.Builder b = DatabaseOptions.builder();
        return checkpoint == null ? b : b.checkpointMode(checkpoint);
    }

    /** How long {@code scenario}'s runs are measured. */
    Duration durationFor(Scenario scenario) {
        return duration != null ? duration : scenario.defaultDuration();
    }

    /** The unmeasured work before each of {@code scenario}'s runs; none for the soak. */
    Duration warmupFor(Scenario scenario) {
        return scenario.compares() ? warmup : Duration.ZERO;
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

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
 * @param threads writer threads of the concurrent runs (the lone-writer runs always use one)
 * @param duration how long each run is measured
 * @param warmup how long each run writes, unmeasured, before its measurement starts
 * @param synchronous the synchronous levels to run, in order, without repeats
 * @param dir where the scratch directory of database files goes; {@code null} for java.io.tmpdir
 * @param json where to write the results as JSON; {@code null} for nowhere
 */
record BenchOptions(
        int threads,
        Duration duration,
        Duration warmup,
        List<Synchronous> synchronous,
        Path dir,
        Path json) {

    BenchOptions {
        if (threads < 1) {
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
        if (synchronous == null || synchronous.isEmpty()) {
            throw new IllegalArgumentException(
                    "--synchronous needs at least one level, e.g. NORMAL,FULL");
        }
        // "NORMAL,NORMAL" would only run the same thing twice
        synchronous = List.copyOf(new LinkedHashSet<>(synchronous));
    }
}

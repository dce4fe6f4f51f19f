package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a {@link BenchReport} as JSON, for scripts that compare runs over time. The shape is the
 * report's records as they are: {@code environment}, {@code settings}, {@code runs} (one per
 * system and configuration, each naming its {@code scenario}) and {@code comparisons} (the
 * ratios). Fields that do not apply to a run (a footprint outside the tenants scenario, say) are
 * left out rather than written as null.
 *
 * <p>{@code --repeat N} adds fields and renames none, so a reader of single runs keeps working:
 * <ul>
 *   <li>{@code settings.repeat}: N.
 *   <li>{@code runs}: every repetition's raw figures, N per system and configuration, in the
 *       order they ran (Lanes and its baseline alternating); {@code runs[].repetition} numbers
 *       them from 1.
 *   <li>{@code comparisons}: still one per configuration. {@code throughputRatio}, {@code
 *       p50Ratio} and {@code p99Ratio} are the medians over the N repetition pairs (with N = 1,
 *       the one ratio, as before); {@code repetitions} is N; {@code throughput}, {@code p50} and
 *       {@code p99} each hold {@code median}, {@code min}, {@code max} and {@code perRepetition},
 *       the ratio of repetition i of Lanes against repetition i of the baseline, in order, {@code
 *       null} where a divisor was zero (such a pair is left out of median, min and max; they are
 *       left out when no pair has a ratio, as a ratio has always been).
 * </ul>
 *
 * <p>A soak adds {@code soaks}, one per level it ran at (left out when none ran): its {@code
 * setup} (databases, clients, connection budget and limit, idle release, checkpoint modes,
 * durations), every sample in {@code samples} (elapsed seconds, the window's requests, deliberate
 * failures and errors, heap after GC, committed heap, RSS, open files, threads, pool threads,
 * open and most connections, reader connections, WAL bytes and the load average), what the {@code external}
 * checkpointer did, the totals {@code requests}, {@code deliberateFailures} and {@code errors},
 * and its {@code verdict}: {@code passed}, the fitted span ({@code fitFromSeconds}, {@code
 * fitToSeconds}), per series its {@code slopePerMinute} against {@code thresholdPerMinute} in
 * its {@code unit}, and the other {@code checks}.
 */
final class JsonReport {
    private JsonReport() {}

    static void write(BenchReport report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL)
                .writeValue(file.toFile(), report);
    }
}

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

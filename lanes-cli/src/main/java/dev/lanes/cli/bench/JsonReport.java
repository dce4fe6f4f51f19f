package dev.lanes.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a {@link BenchReport} as JSON, for scripts that compare runs over time. The shape is the
 * report's records as they are: {@code environment}, {@code settings}, {@code runs} (one per
 * system and configuration) and {@code comparisons} (the ratios).
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
                .writeValue(file.toFile(), report);
    }
}

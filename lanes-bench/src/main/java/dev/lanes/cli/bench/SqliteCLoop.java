package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The write scenario's floor: SQLite's own C API committing one row per transaction in a loop
 * ({@code sqlite-loop.c}, a resource of this module), on one connection with the same pragmas,
 * table and insert as every other {@link BenchSystem}. It is compiled with {@code gcc} against the
 * system's SQLite ({@code libsqlite3-dev}) into the bench's scratch directory on first use; where
 * either is missing, {@link #unavailable} says what to install and the comparison is left out.
 *
 * <p>The loop runs in a child process for the run's warm-up and duration, writes the latency of
 * every insert of the measured window and its own CPU time over the window; the rows are
 * counted afterwards through sqlite-jdbc, like every other system's.
 */
final class SqliteCLoop {
    /** The name shown in results. */
    static final String SYSTEM = "sqlite-c";
    private static final String SOURCE = "sqlite-loop.c";

    private final Path executable;
    private final String version;
    private final String unavailable;

    private SqliteCLoop(Path executable, String version, String unavailable) {
        this.executable = executable;
        this.version = version;
        this.unavailable = unavailable;
    }

    private static SqliteCLoop missing(String why) {
        return new SqliteCLoop(null, null, why);
    }

    /** Compiles the loop into {@code directory}; never throws, says why when it cannot. */
    static SqliteCLoop build(Path directory) {
        return build(directory, "gcc");
    }

    /** {@link #build(Path)} with the compiler named {@code gcc}. */
    static SqliteCLoop build(Path directory, String gcc) {
        Path source = directory.resolve(SOURCE);
        Path executable = directory.resolve("sqlite-loop");
        try (InputStream in = SqliteCLoop.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                return missing(SOURCE + " is missing from the bench's jar");
            }
            Files.createDirectories(directory);
            Files.copy(in, source, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Process compiler = new ProcessBuilder(gcc, "-O2", "-o", executable.toString(),
                    source.toString(), "-lsqlite3").redirectErrorStream(true).start();
            String output = new String(compiler.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8);
            if (!compiler.waitFor(2, TimeUnit.MINUTES) || compiler.exitValue() != 0) {
                return missing("gcc could not build it against SQLite's headers "
                        + "(install gcc and libsqlite3-dev): " + firstLine(output));
            }
            Process v = new ProcessBuilder(executable.toString(), "--version")
                    .redirectErrorStream(true).start();
            String version = new String(v.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8).strip();
            if (!v.waitFor(1, TimeUnit.MINUTES) || v.exitValue() != 0) {
                return missing("the built loop does not start: " + firstLine(version));
            }
            return new SqliteCLoop(executable, version, null);
        } catch (IOException e) {
            return missing("gcc is not on the PATH (install gcc and "
                    + "libsqlite3-dev): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return missing("interrupted while building it");
        }
    }

    /** The version of the SQLite the loop linked; null when it is {@link #unavailable}. */
    String sqliteVersion() {
        return version;
    }

    /** Why the loop cannot run here, naming what to install; null when it can. */
    String unavailable() {
        return unavailable;
    }

    /**
     * Runs the loop on a fresh {@code file} for {@code warmup} and then {@code duration}, and
     * returns what it measured, checked against the rows the file holds afterwards.
     */
    RunResult run(Path file, Synchronous synchronous, Duration warmup, Duration duration)
            throws IOException, InterruptedException, SQLException {
        if (unavailable != null) {
            throw new IllegalStateException("the SQLite C loop cannot run: " + unavailable);
        }
        Path latencies = file.resolveSibling(file.getFileName() + ".latencies");
        Process loop = new ProcessBuilder(executable.toString(), file.toString(),
                synchronous.name(), Long.toString(warmup.toMillis()),
                Long.toString(duration.toMillis()), latencies.toString(),
                BenchSystem.CREATE_TABLE, BenchSystem.INSERT, Payloads.of(0))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Map<String, String> printed = new HashMap<>();
        try (BufferedReader out = loop.inputReader(StandardCharsets.UTF_8)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    printed.put(line.substring(0, space), line.substring(space + 1));
                }
            }
        }
        long limit = warmup.plus(duration).toSeconds() + 60;
        if (!loop.waitFor(limit, TimeUnit.SECONDS)) {
            loop.destroyForcibly();
            throw new IOException("the SQLite C loop did not end within " + limit + " s");
        }
        if (loop.exitValue() != 0 || !printed.containsKey("acknowledged")) {
            throw new IOException("the SQLite C loop failed (exit " + loop.exitValue() + ")");
        }
        LatencyRecorder latency = new LatencyRecorder();
        try (BufferedReader in = Files.newBufferedReader(latencies)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                latency.record(Long.parseLong(line));
            }
        }
        Files.delete(latencies);
        Measurement m = new Measurement(Double.parseDouble(printed.get("seconds")), latency,
                Map.of("insert", latency), new ErrorTally(),
                Long.parseLong(printed.get("acknowledged")), -1, Long.parseLong(printed.get("cpu_ns")),
                Long.parseLong(printed.get("cpu_wall_ns")), null, 1);
        Consistency rows = new Consistency("rows in bench", m.acknowledged(), countRows(file));
        return RunResult.of(Scenario.WRITE, "", synchronous,
                SYSTEM, 1, m, rows);
    }

    private static long countRows(Path file) throws SQLException {
        try (Connection c = BaselineConnections.dataSource(file, Synchronous.NORMAL)
                        .getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(BenchSystem.COUNT_ROWS)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("no output");
    }
}

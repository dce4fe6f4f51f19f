package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.lanes.CheckpointMode;
import dev.lanes.Synchronous;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything one {@code lanes bench} invocation measured, with what it ran on: the data behind the
 * printed table, the {@code --json} file and the {@code --report} page.
 *
 * @param soaks the soaks that ran, one per level; left out of the JSON when none did
 */
record BenchReport(
        Environment environment,
        Settings settings,
        List<ScenarioSummary> scenarios,
        List<RunResult> runs,
        List<Comparison> comparisons,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SoakResult> soaks) {

    BenchReport {
        scenarios = List.copyOf(scenarios);
        runs = List.copyOf(runs);
        comparisons = List.copyOf(comparisons);
        soaks = List.copyOf(soaks);
    }

    /** A report of comparisons only. */
    BenchReport(Environment environment, Settings settings, List<ScenarioSummary> scenarios,
            List<RunResult> runs, List<Comparison> comparisons) {
        this(environment, settings, scenarios, runs, comparisons, List.of());
    }

    /** Whether every soak passed (and so the bench exits 0); true when none ran. */
    boolean soaksPassed() {
        return soaks.stream().allMatch(s -> s.verdict().passed());
    }

    /**
     * A scenario that ran, and what its runs compared.
     *
     * @param unit what its throughput counts ({@code writes/s}, {@code tx/s}…)
     */
    record ScenarioSummary(Scenario scenario, String title, String unit, String description) {

        static ScenarioSummary of(ScenarioBench bench) {
            return new ScenarioSummary(bench.scenario(), bench.scenario().title(),
                    bench.scenario().unit(), bench.description());
        }
    }

    /**
     * The machine and software a bench ran on: figures mean little without them.
     *
     * @param memoryBytes the machine's physical memory, or -1 when the JVM cannot tell
     * @param cpuModel the processor's model name, from {@code /proc/cpuinfo}; empty elsewhere
     * @param sqlite the version of the SQLite library that ran the bench
     * @param sqliteJdbc the version of the sqlite-jdbc driver that carries it
     * @param fileSystem the type of the file system the databases were on ({@code ext4},
     *     {@code tmpfs}…): {@code FULL} means little on tmpfs
     * @param startedAt when the bench started, ISO-8601 in UTC
     */
    record Environment(
            String java,
            String os,
            int cpus,
            String cpuModel,
            long memoryBytes,
            String sqlite,
            String sqliteJdbc,
            String directory,
            String fileSystem,
            String startedAt) {

        static Environment describe(Path directory) throws IOException {
            return new Environment(
                    System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
                            + ", " + System.getProperty("java.vendor") + ")",
                    System.getProperty("os.name") + " " + System.getProperty("os.version")
                            + " " + System.getProperty("os.arch"),
                    Runtime.getRuntime().availableProcessors(),
                    readCpuModel(),
                    physicalMemory(),
                    sqliteVersion(),
                    org.sqlite.SQLiteJDBCLoader.getVersion(),
                    directory.toString(),
                    Files.getFileStore(directory).type(),
                    Instant.now().toString());
        }

        private static long physicalMemory() {
            var os = ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean) {
                return ((com.sun.management.OperatingSystemMXBean) os).getTotalMemorySize();
            }
            return -1;
        }

        private static String readCpuModel() {
            try {
                Optional<String> line = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                        .filter(l -> l.startsWith("model name"))
                        .findFirst();
                return line.map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("");
            } catch (IOException | RuntimeException e) {
                return "";
            }
        }

        /** Asks the library itself: the driver's version only says which build carries it. */
        private static String sqliteVersion() {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
                rs.next();
                return rs.getString(1);
            } catch (SQLException e) {
                return "unknown (" + e.getMessage() + ")";
            }
        }
    }

    /**
     * The options the bench ran with, in JSON-friendly units.
     *
     * @param threads {@code --threads}, or null when each scenario used its own default
     * @param durationSeconds the measured time of each comparison run: {@code --duration}, or its
     *     default of 5 s (a soak's own length is its {@code setup.durationSeconds})
     * @param repeat {@code --repeat}: how many times each configuration ran
     * @param synchronous {@code --synchronous}, or null when each scenario used its own default
     */
    record Settings(
            List<Scenario> scenarios,
            Integer threads,
            double durationSeconds,
            double warmupSeconds,
            int repeat,
            List<Synchronous> synchronous,
            int databases,
            CheckpointMode checkpoint) {

        static Settings of(BenchOptions options) {
            return new Settings(
                    options.scenarios(),
                    options.threads(),
                    options.durationFor(Scenario.WRITE).toNanos() / 1e9,
                    options.warmup().toNanos() / 1e9,
                    options.repeat(),
                    options.synchronous(),
                    options.databases(),
                    options.checkpoint());
        }
    }
}

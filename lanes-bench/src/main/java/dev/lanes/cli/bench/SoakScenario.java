package dev.lanes.cli.bench;

import dev.lanes.CheckpointMode;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The soak: {@code --databases} databases in one runtime under a mixed load ({@link SoakLoad})
 * for {@code --duration} (10 minutes unless given), sampled every {@code --sample-interval} (10
 * s), and judged by whether anything grew without bound ({@link SoakVerdict}). The runtime runs
 * as a crowded one does: a connection budget well below what the databases would hold, so that
 * the least recently used lose their connections all the time; a short idle release, so that
 * databases that go quiet give back readers and memory; checkpoints in every mode ({@link
 * SoakTargets}), the {@code EXTERNAL} databases checkpointed by a Litestream-style thread of the
 * soak's own ({@link ExternalCheckpointer}).
 *
 * <p>After the load, two checks of the data join the verdict: every counter holds exactly the
 * read-then-write transactions that committed, and no row of a body or transaction that failed
 * on purpose persisted. Creating the databases is set-up, not part of the soak.
 *
 * <p>A soak has no baseline, no warm-up (its verdict reads only the second half of the
 * samples) and no repetitions; it runs once per synchronous level.
 */
final class SoakScenario implements ScenarioBench {
    /** Reader connections of each database. */
    static final int READERS = 2;
    /** Each database's idle release: short, so that quiet databases are released in the run. */
    static final Duration IDLE_RELEASE = Duration.ofSeconds(3);
    /** How often the most connections open are sampled between samples. */
    static final long CONNECTION_PEAK_MILLIS = 100;
    /** The hot window moves on every this many sample intervals. */
    static final int HOT_ROTATION_INTERVALS = 3;
    /** The connection budget: 3 in 10 databases' worth of connections, within these bounds. */
    static final int MIN_BUDGET = 32;
    static final int MAX_BUDGET = 300;

    private final BenchOptions options;
    private final Path directory;
    private final int retainBytesPerRequest;

    SoakScenario(BenchOptions options, Path directory) {
        this(options, directory, 0);
    }

    /**
     * A soak whose every request keeps {@code retainBytesPerRequest} bytes reachable until the
     * load ends: a leak on purpose, for the tests that show the verdict catches one.
     */
    SoakScenario(BenchOptions options, Path directory, int retainBytesPerRequest) {
        this.options = options;
        this.directory = directory;
        this.retainBytesPerRequest = retainBytesPerRequest;
    }

    @Override
    public Scenario scenario() {
        return Scenario.SOAK;
    }

    @Override
    public String description() {
        Duration interval = options.sampleInterval();
        return String.format(Locale.ROOT, "%,d databases in one runtime, %d clients, for %s;"
                        + " a sample every %s; fails when anything grows without bound;"
                        + " synchronous %s",
                options.databases(), options.threadsFor(Scenario.SOAK),
                ReportTable.human(options.durationFor(Scenario.SOAK)),
                ReportTable.human(interval), options.synchronousFor(Scenario.SOAK).stream()
                        .map(Enum::name).collect(Collectors.joining(", ")));
    }

    @Override
    public int plannedComparisons() {
        return 0;
    }

    @Override
    public int plannedSoaks() {
        return options.synchronousFor(Scenario.SOAK).size();
    }

    @Override
    public void run(Sink sink) throws Exception {
        for (Synchronous sync : options.synchronousFor(Scenario.SOAK)) {
            sink.soaked(soak(sink, sync));
        }
    }

    /** The connection budget of {@code databases}: small enough that evictions happen. */
    static int connectionBudget(int databases) {
        return Math.max(MIN_BUDGET, Math.min(MAX_BUDGET, databases * 3 / 10));
    }

    private SoakResult soak(Sink sink, Synchronous sync) throws Exception {
        int databases = options.databases();
        int clients = options.threadsFor(Scenario.SOAK);
        Duration interval = options.sampleInterval();
        Duration duration = options.durationFor(Scenario.SOAK);
        int budget = connectionBudget(databases);
        SoakTargets targets = new SoakTargets(databases,
                interval.multipliedBy(HOT_ROTATION_INTERVALS).toNanos());
        Path dir = Files.createDirectories(
                directory.resolve("soak-" + sync.name().toLowerCase(Locale.ROOT)));
        long setupStart = System.nanoTime();
        try (Lanes lanes = Lanes.builder().name("soak").maxOpenConnections(budget).build()) {
            List<Database> dbs = ManyDatabases.create(sink, "soak", lanes, dir, databases,
                    i -> options(sync, targets.checkpointMode(i)));
            List<Path> externalFiles = targets.external().stream()
                    .map(i -> ManyDatabases.file(dir, i)).collect(Collectors.toList());
            int maxThreads = lanes.diagnostics().maxThreads();
            // the budget evicts after an open, so each thread that may be opening a connection
            // at that moment can take the count one past it: the clients and the pool's threads
            int limit = budget + clients + maxThreads;
            Duration externalPeriod = interval.dividedBy(2);
            SoakResult.Setup setup = new SoakResult.Setup(sync, databases, clients,
                    targets.hotDatabases(), seconds(interval.multipliedBy(HOT_ROTATION_INTERVALS)),
                    budget, limit, maxThreads, READERS, seconds(IDLE_RELEASE),
                    targets.count(CheckpointMode.AUTO), targets.count(CheckpointMode.DEDICATED),
                    targets.count(CheckpointMode.EXTERNAL), seconds(externalPeriod),
                    SoakLoad.KEPT_ROWS, seconds(duration), seconds(interval),
                    (System.nanoTime() - setupStart) / 1e9);
            List<SoakSample> samples = new ArrayList<>();
            SoakResult.ExternalCheckpoints external;
            long committed;
            try (ExternalCheckpointer checkpointer =
                            new ExternalCheckpointer(externalFiles, sync, externalPeriod);
                    PeakSampler connections = new PeakSampler("soak-connections",
                            () -> lanes.diagnostics().openConnections(), CONNECTION_PEAK_MILLIS)) {
                SoakSampler sampler = new SoakSampler(lanes, dbs, connections);
                sink.runStarting(String.format(Locale.ROOT, "soak: lanes, %,d databases,"
                        + " %d clients, %s", databases, clients, sync));
                sink.soakStarting(setup);
                SoakLoad load = new SoakLoad(dbs, targets, clients, retainBytesPerRequest);
                try (load) {
                    sampleUntil(sink, sampler, load, samples, interval, duration);
                }
                // only once every client stopped: a transaction may commit until then
                committed = load.committedTransactions();
                external = checkpointer.counts();
            }
            List<SoakVerdict.Check> dataChecks = checkData(sink, dbs, committed);
            SoakVerdict verdict = SoakVerdict.judge(samples, limit, String.format(Locale.ROOT,
                    "budget %,d + %d clients + %d pool threads opening", budget, clients,
                    maxThreads), dataChecks);
            return new SoakResult(setup, samples, external, verdict);
        }
    }

    /**
     * Takes the first sample now, as the load starts, and then one at every interval until
     * {@code duration} (the last window is shorter when the duration is not a whole number of
     * intervals).
     */
    private static void sampleUntil(Sink sink, SoakSampler sampler, SoakLoad load,
            List<SoakSample> samples, Duration interval, Duration duration)
            throws InterruptedException {
        long start = System.nanoTime();
        load.takeWindow(); // what the clients did before this instant belongs to no window
        SoakSample first = sampler.sample(0, 0, new SoakLoad.Window(0, 0, Map.of()));
        samples.add(first);
        sink.sampled(first);
        long previous = start;
        for (int k = 1; ; k++) {
            long due = start + Math.min(interval.toNanos() * k, duration.toNanos());
            // pacing, not ordering: the clients run on their own and the sample reads counters
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            long now = System.nanoTime();
            SoakLoad.Window window = load.takeWindow();
            SoakSample sample = sampler.sample((now - start) / 1e9, (now - previous) / 1e9,
                    window);
            previous = now;
            samples.add(sample);
            sink.sampled(sample);
            if (due - start >= duration.toNanos()) {
                return;
            }
        }
    }

    /**
     * The checks of the data after the load: the counters against the transactions that
     * committed, and no row of a request that failed on purpose.
     */
    private static List<SoakVerdict.Check> checkData(Sink sink, List<Database> dbs,
            long committed) {
        sink.status(String.format(Locale.ROOT, "soak: checking the data of %,d databases",
                dbs.size()));
        long counted = 0;
        long failedRows = 0;
        for (Database db : dbs) {
            counted += db.query("SELECT coalesce(sum(n), 0) AS n FROM kv").get(0).getLong("n");
            failedRows += db.query("SELECT count(*) AS n FROM events WHERE payload = ?",
                    SoakLoad.FAILED_PAYLOAD).get(0).getLong("n");
        }
        List<SoakVerdict.Check> checks = new ArrayList<>();
        checks.add(new SoakVerdict.Check("counters, all databases",
                String.format(Locale.ROOT, "%,d increments", counted),
                String.format(Locale.ROOT, "= %,d committed transactions", committed),
                counted == committed));
        checks.add(new SoakVerdict.Check("rows of writes that failed on purpose",
                String.format(Locale.ROOT, "%,d found", failedRows), "0", failedRows == 0));
        return checks;
    }

    private static DatabaseOptions options(Synchronous sync, CheckpointMode mode) {
        return DatabaseOptions.builder()
                .synchronous(sync)
                .busyTimeout(Duration.ofMillis(BenchSystem.BUSY_TIMEOUT_MS))
                .readers(READERS)
                .idleRelease(IDLE_RELEASE)
                .checkpointMode(mode)
                .build();
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}

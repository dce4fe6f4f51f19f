package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseFiles;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.RuntimeDiagnostics;
import dev.lanes.Synchronous;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.sqlite.SQLiteDataSource;

/**
 * The tenants scenario: {@code --databases} tenant databases open in one Lanes runtime (its
 * default thread cap), and {@code threads} clients each picking a tenant at random for every
 * request, {@value #HOT_PERCENT} % of requests going to the hottest {@value #HOT_SET_PERCENT} % of
 * tenants, {@value #READ_PERCENT} % of requests being point reads ({@code db.query}) and the rest
 * single-row inserts ({@code db.execute}). It measures throughput and latency (also by read and
 * write), then samples what hosting the tenants costs: threads used, open connections, heap and
 * RSS per database ({@link TenantFootprint}). Set-up, not measured: creating the tenant
 * databases (copies of one template database, {@link ManyDatabases#copies}), opening each in the
 * runtime, and connecting each, an empty write opening its writer connection and one read its
 * first reader connection. Under a connection budget ({@link #connectionBudget}: 10,000 tenants
 * and more within 20,000 descriptors) only as many tenants are connected as the budget keeps
 * open, the hot set first ({@link #connectedAtStart}); the others connect on their first request,
 * in the warm-up or the window, as they would have after the budget closed their connections.
 *
 * <p>The baseline is what an application does without a runtime when it cannot keep a pool per
 * tenant (that many pools would pass the descriptor limit, which is what Lanes' connection budget
 * exists for): plain sqlite-jdbc, a connection opened per request with the baseline's settings
 * ({@link BaselineConnections}) and closed after it. It runs on the same files once the runtime
 * closed, with the same clients and mix, from the same state of the files: the empty {@code -wal}
 * and {@code -shm} files Lanes kept beside evicted databases are removed first ({@link
 * ManyDatabases#removeEmptyWals}), since a connection per request finds none in its own steady
 * state (each close deletes them), and none were beside the copies Lanes began with. Each
 * repetition creates its own tenant databases, which its baseline run then uses.
 */
final class TenantScenario implements ScenarioBench {
    static final int HOT_PERCENT = 80;
    static final int HOT_SET_PERCENT = 10;
    static final int READ_PERCENT = 80;
    static final int KV_ROWS = ManyDatabases.KV_ROWS;
    /**
     * How often the most open descriptors are sampled. Each sample lists {@code /proc/self/fd}:
     * with 14,000 descriptors open, about 20 ms of CPU, so at 4 a second the sampler took 12 % of
     * the process's CPU, charged to Lanes' CPU per request and taken from its clients' cores.
     */
    private static final long OPEN_FILES_PERIOD_MILLIS = 1_000;
    private static final String SELECT = "SELECT v FROM kv WHERE id = ?";
    private static final String INSERT = "INSERT INTO events(payload) VALUES (?)";

    private final BenchOptions options;
    private final Path directory;
    private final WorkloadRunner runner;

    TenantScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
        this.runner = new WorkloadRunner(options.warmup(), options.durationFor(Scenario.TENANTS));
    }

    @Override
    public Scenario scenario() {
        return Scenario.TENANTS;
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%,d tenant databases in one runtime, %d clients;"
                        + " %d %% of requests to %d %% of tenants, %d %% reads; synchronous %s",
                options.databases(), options.threadsFor(Scenario.TENANTS), HOT_PERCENT,
                HOT_SET_PERCENT, READ_PERCENT, options.synchronousFor(Scenario.TENANTS).stream()
                        .map(Enum::name).collect(Collectors.joining(", ")));
    }

    @Override
    public int plannedComparisons() {
        return options.synchronousFor(Scenario.TENANTS).size();
    }

    /** How many tenants form the hot set: {@value #HOT_SET_PERCENT} %, at least one. */
    static int hotDatabases(int databases) {
        return Math.max(1, (int) Math.round(databases * HOT_SET_PERCENT / 100.0));
    }

    /** The tenant a request goes to, for a uniform draw of the random source. */
    static int pickTenant(SplittableRandom random, int databases, int hot) {
        if (hot >= databases || random.nextInt(100) < HOT_PERCENT) {
            return random.nextInt(hot);
        }
        return hot + random.nextInt(databases - hot);
    }

    @Override
    public void run(Sink sink) throws Exception {
        for (Synchronous sync : options.synchronousFor(Scenario.TENANTS)) {
            sink.compare(rep -> measure(sink, sync, rep), rep -> measureRaw(sink, sync, rep));
        }
    }

    /**
     * The connection cap the tenants need to stay within {@code limit} file descriptors (the
     * process's soft limit; 0 or less when unknown), or 0 (no cap) when they fit without one.
     * The leases of the tenants' directory hold at most {@link DatabaseFiles#LOCK_FILES}
     * descriptors however many tenants are open; each connection holds about three (its database
     * and WAL files, and its database's shared-memory file).
     */
    static int connectionBudget(int databases, long limit) {
        // the JVM's own files, sockets and jars; the leases
        long spare = 1_000 + DatabaseFiles.LOCK_FILES;
        if (limit <= 0 || (long) databases * 3 + spare <= limit) {
            return 0;
        }
        return (int) Math.max(64, (limit - spare) * BUDGET_SHARE / 3);
    }

    /**
     * The share of the descriptors beyond the spare that the connections may hold at the cap. The
     * rest is headroom: the cap is passed briefly by the connections opening at that moment, and
     * SQLite keeps a closed connection's descriptor while another connection of the same file
     * holds a lock. With all of it (three per connection up to the limit), 10,000 tenants ran out
     * of descriptors here: a reader's open failed {@code SQLITE_CANTOPEN}.
     */
    static final double BUDGET_SHARE = 0.9;

    private RunResult measure(Sink sink, Synchronous sync, int repetition) throws Exception {
        int databases = options.databases();
        int hot = hotDatabases(databases);
        int clients = options.threadsFor(Scenario.TENANTS);
        Path tenantsDir = Files.createDirectories(tenantsDirectory(sync, repetition));
        // which tenants a write was attempted in, one bit each: only those can hold events
        // (the copies start with none), so only those are counted afterwards, which spares a
        // connection to every other tenant (at 100,000 tenants, minutes of opening and closing)
        AtomicLongArray written = new AtomicLongArray((databases + 63) / 64);
        long heapBefore = ProcessMemory.heapUsedAfterGc();
        long rssBefore = ProcessMemory.residentSetBytes();
        long committedBefore = ProcessMemory.heapCommitted();
        long setupStart = System.nanoTime();
        long openFilesLimit = ProcessMemory.maxOpenFiles();
        int budget = connectionBudget(databases, openFilesLimit);
        if (budget > 0) {
            sink.status(String.format(Locale.ROOT, "tenants: %,d databases need a connection "
                    + "budget within %,d file descriptors: maxOpenConnections %,d", databases,
                    openFilesLimit, budget));
        }
        try (PeakSampler openFiles = new PeakSampler("tenants-open-files", ProcessMemory::openFiles,
                        OPEN_FILES_PERIOD_MILLIS);
                Lanes lanes = Lanes.builder().name("tenants").maxOpenConnections(budget).build()) {
            List<Database> tenants = create(sink, lanes, options.lanesDatabase(), tenantsDir, sync,
                    databases, connectedAtStart(databases, budget));
            double setupSeconds = (System.nanoTime() - setupStart) / 1e9;

            sink.runStarting(String.format(Locale.ROOT, "tenants: lanes, %,d databases, %d clients,"
                    + " %s", databases, clients, sync));
            LongAdder writesAcknowledged = new LongAdder();
            Measurement m = runner.run("tenants", mix(databases, hot,
                    lanesClient(tenants, written, writesAcknowledged)), clients);
            RunResult measured = RunResult.of(Scenario.TENANTS, variant(databases), sync, "lanes",
                    clients, m, null);
            m = null; // its recorders are not the tenants' footprint: let the GC take them

            RuntimeDiagnostics runtime = lanes.diagnostics();
            long heapAfter = ProcessMemory.heapUsedAfterGc();
            long rssAfter = ProcessMemory.residentSetBytes();
            TenantFootprint footprint = new TenantFootprint(databases, hot, HOT_PERCENT / 100.0,
                    READ_PERCENT / 100.0, runtime.liveThreads(), runtime.maxThreads(),
                    runtime.openConnections(), budget, openFilesLimit,
                    openFiles.most(), heapBefore, heapAfter, committedBefore,
                    ProcessMemory.heapCommitted(), rssBefore, rssAfter, setupSeconds);
            return measured.with(new Consistency("rows in events, every tenant written to",
                    writesAcknowledged.sum(), eventsIn(tenants, written)), footprint);
        }
    }

    /**
     * A client of the tenants in Lanes: a read must find its row; a write marks its tenant in
     * {@code written} before the attempt (a write that failed may still have committed) and
     * counts itself acknowledged after.
     */
    private static TenantClient lanesClient(List<Database> tenants, AtomicLongArray written,
            LongAdder acknowledged) {
        return new TenantClient() {
            @Override
            public void read(int tenant, long id) {
                Database db = tenants.get(tenant);
                if (db.query(SELECT, id).size() != 1) {
                    throw new IllegalStateException(db.path() + ": row " + id + " missing");
                }
            }

            @Override
            public void write(int tenant, String payload) {
                written.getAndAccumulate(tenant >>> 6, 1L << tenant, (a, b) -> a | b);
                tenants.get(tenant).execute(INSERT, payload);
                acknowledged.increment();
            }
        };
    }

    /** The events in the tenants marked in {@code written}: the only ones that can hold any. */
    private static long eventsIn(List<Database> tenants, AtomicLongArray written) {
        long rows = 0;
        for (int i = 0; i < tenants.size(); i++) {
            if ((written.get(i >>> 6) & (1L << i)) != 0) {
                rows += tenants.get(i).query("SELECT count(*) AS n FROM events").get(0)
                        .getLong("n");
            }
        }
        return rows;
    }

    /**
     * The baseline: a plain connection opened for each request, on the tenants Lanes made in the
     * same repetition.
     */
    private RunResult measureRaw(Sink sink, Synchronous sync, int repetition) throws Exception {
        int databases = options.databases();
        int hot = hotDatabases(databases);
        int clients = options.threadsFor(Scenario.TENANTS);
        Path tenantsDir = tenantsDirectory(sync, repetition);
        int reset = ManyDatabases.removeEmptyWals(tenantsDir, databases);
        sink.status(String.format(Locale.ROOT, "tenants: removed the empty -wal and -shm files"
                + " Lanes kept beside %,d of %,d databases, so that the baseline starts from the"
                + " copies' state, as Lanes did", reset, databases));
        List<SQLiteDataSource> tenants = new ArrayList<>(databases);
        for (int i = 0; i < databases; i++) {
            tenants.add(BaselineConnections.dataSource(ManyDatabases.file(tenantsDir, i), sync));
        }
        sink.runStarting(String.format(Locale.ROOT, "tenants: raw, a connection per request, "
                + "%,d databases, %d clients, %s", databases, clients, sync));
        Measurement m = runner.run("tenants-raw", mix(databases, hot, new TenantClient() {
            @Override
            public void read(int tenant, long id) throws SQLException {
                try (Connection c = tenants.get(tenant).getConnection();
                        PreparedStatement select = c.prepareStatement(SELECT)) {
                    select.setLong(1, id);
                    try (ResultSet rs = select.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException("row " + id + " missing");
                        }
                    }
                }
            }

            @Override
            public void write(int tenant, String payload) throws SQLException {
                try (Connection c = tenants.get(tenant).getConnection();
                        PreparedStatement insert = c.prepareStatement(INSERT)) {
                    insert.setString(1, payload);
                    insert.executeUpdate();
                }
            }
        }), clients);
        return RunResult.of(Scenario.TENANTS, variant(databases), sync, "raw", clients, m, null);
    }

    /** One system's way of serving a tenant's requests. */
    private interface TenantClient {
        void read(int tenant, long id) throws Exception;

        void write(int tenant, String payload) throws Exception;
    }

    /**
     * The request mix, the same for every system: each request picks a tenant (skewed to the hot
     * set), then is a point read ({@value #READ_PERCENT} %) or a single-row insert.
     */
    private static Workload mix(int databases, int hot, TenantClient client) {
        return thread -> {
            SplittableRandom random = new SplittableRandom(thread);
            String payload = Payloads.of(thread);
            return () -> {
                int tenant = pickTenant(random, databases, hot);
                if (random.nextInt(100) < READ_PERCENT) {
                    client.read(tenant, 1 + random.nextInt(KV_ROWS));
                    return "read";
                }
                client.write(tenant, payload);
                return "write";
            };
        };
    }

    /** How a tenants run is labelled: by its number of databases. */
    private static String variant(int databases) {
        return String.format(Locale.ROOT, "%,d databases", databases);
    }

    private Path tenantsDirectory(Synchronous sync, int repetition) {
        return directory.resolve(
                "tenants-" + sync.name().toLowerCase(Locale.ROOT) + "-r" + repetition);
    }

    /**
     * How many tenants set-up connects (a writer and a reader each, the hot set first, tenants 0
     * on): all of them when there is no connection budget; else as many as the budget keeps open,
     * two connections each. Connecting more would be undone before the run: each connection past
     * the budget closes an idle one, and the last connection of a database to close checkpoints it
     * and removes its WAL. At 10,000 tenants within 20,000 descriptors, connecting every tenant
     * made set-up take minutes, nearly all of it in those closes.
     */
    static int connectedAtStart(int databases, int budget) {
        return budget <= 0 ? databases : Math.min(databases, Math.max(1, budget / 2));
    }

    /**
     * Creates the tenant databases, copies of one template ({@link ManyDatabases#copies}), opens
     * them in the runtime, and connects the first {@code connected}: an empty write opens each
     * one's writer, one read its first reader.
     */
    private static List<Database> create(Sink sink, Lanes lanes, DatabaseOptions.Builder base,
            Path dir, Synchronous sync, int databases, int connected) throws IOException {
        DatabaseOptions dbOptions = base
                .synchronous(sync)
                .busyTimeout(Duration.ofMillis(BenchSystem.BUSY_TIMEOUT_MS))
                .build();
        List<Database> tenants = ManyDatabases.copies(sink, "tenants", lanes,
                dir.resolveSibling(dir.getFileName() + "-template"), dir, databases, connected,
                dbOptions);
        // one read each opens a reader connection per tenant, as a tenant's first request would:
        // part of setting up, not of the load (with 1,000 tenants, a one-second warm-up would
        // otherwise spend itself opening readers)
        sink.status(connected == databases
                ? String.format(Locale.ROOT, "tenants: reading each of %,d databases once",
                        databases)
                : String.format(Locale.ROOT, "tenants: reading each of the first %,d of %,d"
                        + " databases once, as many as the connection budget keeps connected",
                        connected, databases));
        for (Database db : tenants.subList(0, connected)) {
            db.query(SELECT, 1);
        }
        return tenants;
    }
}

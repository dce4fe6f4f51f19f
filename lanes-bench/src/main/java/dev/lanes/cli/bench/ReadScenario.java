package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Row;
import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The read scenario: point reads by primary key from a table of {@value #ROWS} rows, through
 * Lanes ({@code db.query}, with as many reader connections as threads) and through raw JDBC (one
 * read-only sqlite-jdbc connection per thread, its statement prepared once), at 1 thread and at
 * {@code threads}, each alone and beside one concurrent writer that updates random rows as fast
 * as it can (through {@code db.execute} for Lanes, through its own autocommit connection for raw
 * JDBC). A read that finds no row counts as a failure.
 *
 * <p>Each synchronous level gets one database file, filled once; every run of that level (every
 * repetition too) opens it afresh, Lanes and raw JDBC next to each other, so both read the same
 * pages.
 */
final class ReadScenario implements ScenarioBench {
    static final int ROWS = 100_000;
    private static final String SELECT = "SELECT payload FROM bench WHERE id = ?";
    private static final String UPDATE = "UPDATE bench SET payload = ? WHERE id = ?";
    private static final String ALONE = "alone";
    private static final String WITH_WRITER = "with writer";

    private final BenchOptions options;
    private final Path directory;
    private final WorkloadRunner runner;

    ReadScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
        this.runner = new WorkloadRunner(options.warmup(), options.durationFor(Scenario.READ));
    }

    @Override
    public Scenario scenario() {
        return Scenario.READ;
    }

    @Override
    public String description() {
        return threadCounts().stream().map(String::valueOf).collect(Collectors.joining(" and "))
                + " reader threads, alone and beside 1 writer, Lanes db.query vs raw JDBC on as"
                + " many connections; " + String.format(Locale.ROOT, "%,d", ROWS)
                + " rows; synchronous " + options.synchronousFor(Scenario.READ).stream()
                        .map(Enum::name).collect(Collectors.joining(", "));
    }

    @Override
    public int plannedComparisons() {
        return options.synchronousFor(Scenario.READ).size() * threadCounts().size() * 2;
    }

    /** A lone reader, then the scenario's threads (once, when they are 1). */
    private List<Integer> threadCounts() {
        int threads = options.threadsFor(Scenario.READ);
        return threads == 1 ? List.of(1) : List.of(1, threads);
    }

    @Override
    public void run(Sink sink) throws Exception {
        for (Synchronous sync : options.synchronousFor(Scenario.READ)) {
            Path file = directory.resolve("read-" + sync.name().toLowerCase(Locale.ROOT) + ".db");
            sink.status("read: filling " + file.getFileName() + " with "
                    + String.format(Locale.ROOT, "%,d", ROWS) + " rows");
            fill(file, sync);
            for (int threads : threadCounts()) {
                for (String variant : List.of(ALONE, WITH_WRITER)) {
                    boolean writer = variant.equals(WITH_WRITER);
                    // the runs only read the filled file (or update rows in place): every
                    // repetition reads the same file
                    sink.compare(rep -> measureLanes(sink, file, sync, threads, writer),
                            rep -> measureRaw(sink, file, sync, threads, writer));
                }
            }
        }
    }

    /** Creates {@code file}'s table of {@value #ROWS} rows (the JDBC scenario reads it too). */
    static void fill(Path file, Synchronous sync) throws SQLException {
        try (Connection c = BaselineConnections.dataSource(file, sync).getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute(BenchSystem.CREATE_TABLE);
            }
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO bench(id, payload) VALUES (?, ?)")) {
                for (int id = 1; id <= ROWS; id++) {
                    insert.setInt(1, id);
                    insert.setString(2, Payloads.of(id));
                    insert.addBatch();
                    if (id % 10_000 == 0) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
            c.commit();
        }
    }

    private RunResult measureLanes(Sink sink, Path file, Synchronous sync, int threads,
            boolean writer) throws Exception {
        sink.runStarting(label("lanes", sync, threads, writer));
        DatabaseOptions dbOptions = options.lanesDatabase()
                .synchronous(sync)
                .busyTimeout(Duration.ofMillis(BenchSystem.BUSY_TIMEOUT_MS))
                // the same number of connections as the raw side: one per thread
                .readers(threads)
                .build();
        Measurement m;
        try (Lanes lanes = Lanes.builder().name("bench").build()) {
            Database db = lanes.open(file, dbOptions);
            db.whenReady().join();
            Workload reads = thread -> {
                SplittableRandom random = new SplittableRandom(thread);
                return () -> {
                    long id = 1 + random.nextInt(ROWS);
                    List<Row> rows = db.query(SELECT, id);
                    if (rows.size() != 1) {
                        throw new IllegalStateException("row " + id + " not found");
                    }
                    return "read";
                };
            };
            Workload writes = thread -> {
                SplittableRandom random = new SplittableRandom(-1);
                String payload = Payloads.of(-1);
                return () -> {
                    db.execute(UPDATE, payload, 1 + random.nextInt(ROWS));
                    return "write";
                };
            };
            m = runner.run("read-lanes", reads, threads, writer ? writes : null);
        }
        return result("lanes", sync, threads, writer, m);
    }

    private RunResult measureRaw(Sink sink, Path file, Synchronous sync, int threads,
            boolean writer) throws Exception {
        sink.runStarting(label("raw", sync, threads, writer));
        Workload reads = thread -> new RawReader(file, new SplittableRandom(thread));
        Workload writes = thread -> new RawWriter(file, sync, new SplittableRandom(-1));
        Measurement m = runner.run("read-raw", reads, threads, writer ? writes : null);
        return result("raw", sync, threads, writer, m);
    }

    private static RunResult result(String system, Synchronous sync, int threads,
            boolean writer, Measurement m) {
        return RunResult.of(
                Scenario.READ, writer ? WITH_WRITER : ALONE, sync, system, threads, m, null);
    }

    private static String label(String system, Synchronous sync, int threads, boolean writer) {
        return "read: " + system + ", " + threads + " thread" + (threads == 1 ? "" : "s")
                + (writer ? " + writer" : "") + ", " + sync;
    }

    /** One raw reader thread: its own read-only connection and prepared statement. */
    private static final class RawReader implements Operation {
        private final Connection connection;
        private final PreparedStatement select;
        private final SplittableRandom random;

        RawReader(Path file, SplittableRandom random) throws SQLException {
            this.connection = BaselineConnections.readOnlyDataSource(file).getConnection();
            this.select = prepare(connection, SELECT);
            this.random = random;
        }

        @Override
        public String run() throws SQLException {
            long id = 1 + random.nextInt(ROWS);
            select.setLong(1, id);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("row " + id + " not found");
                }
                rs.getString(1);
            }
            return "read";
        }

        @Override
        public void close() throws SQLException {
            closeBoth(select, connection);
        }
    }

    /** The raw side's concurrent writer: one autocommit connection of its own. */
    private static final class RawWriter implements Operation {
        private final Connection connection;
        private final PreparedStatement update;
        private final SplittableRandom random;
        private final String payload = Payloads.of(-1);

        RawWriter(Path file, Synchronous sync, SplittableRandom random) throws SQLException {
            this.connection = BaselineConnections.dataSource(file, sync).getConnection();
            this.update = prepare(connection, UPDATE);
            this.random = random;
        }

        @Override
        public String run() throws SQLException {
            update.setString(1, payload);
            update.setLong(2, 1 + random.nextInt(ROWS));
            update.executeUpdate();
            return "write";
        }

        @Override
        public void close() throws SQLException {
            closeBoth(update, connection);
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql)
            throws SQLException {
        try {
            return connection.prepareStatement(sql);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static void closeBoth(PreparedStatement statement, Connection connection)
            throws SQLException {
        try {
            statement.close();
        } finally {
            connection.close();
        }
    }
}

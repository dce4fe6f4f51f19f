package dev.lanes.cli.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.MetricsListener;
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
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.sqlite.SQLiteConfig;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JDBC scenario: one piece of code per workload, written against {@link DataSource} only,
 * run on {@code db.dataSource()} and on the data source an application would otherwise have, in
 * one process, Lanes and its baseline next to each other:
 *
 * <ul>
 *   <li>{@value #INSERT_VARIANT}: auto-commit single-row inserts (borrow a connection, prepare,
 *       execute, close) from {@value #INSERT_THREADS} threads, against HikariCP over sqlite-jdbc,
 *       at every synchronous level;
 *   <li>{@value #TX_VARIANT}: read-then-write transactions through Spring's {@code
 *       TransactionTemplate} and {@code JdbcClient} ({@code SELECT} a counter, {@code UPDATE} it
 *       plus one) from {@value #TX_THREADS} threads against HikariCP, failures counted by kind;
 *       against HikariCP whose connections begin those transactions {@code IMMEDIATE} ({@value
 *       #IMMEDIATE_HIKARI}), the usual cure for those failures, which makes every transaction
 *       wait for SQLite's write lock in its busy handler instead; and from one thread against
 *       the same Spring code on one raw sqlite-jdbc connection
 *       ({@code SingleConnectionDataSource}), the lower bound of a lone transaction;
 *   <li>{@value JpaWorkload#VARIANT}: a PetClinic-shaped Hibernate unit of work ({@link
 *       JpaWorkload}: find, JPQL count, persist, commit) from {@value #JPA_THREADS} threads
 *       against HikariCP with {@code IMMEDIATE} transactions, at every synchronous level;
 *   <li>{@value JpaWorkload#MIX_VARIANT}: the same threads and baseline running PetClinic's
 *       mix of read-only units and that one ({@link JpaWorkload#mixedUnit}: three read-only
 *       transactions, {@code setReadOnly(true)} as {@code @Transactional(readOnly = true)} does,
 *       per "add a visit"), with Lanes' read-only transactions' waits for a reader connection
 *       ({@link ReaderWaits}) and each kind's latencies reported;
 *   <li>{@value #READ_VARIANT}: point reads by primary key, each thread on its own connection
 *       with its statement prepared once, from {@value #READ_THREADS} threads against as many
 *       raw read-only sqlite-jdbc connections, on a table of {@value ReadScenario#ROWS} rows.
 * </ul>
 * Transactions, the mix and reads run at the first synchronous level only. {@code --threads}
 * sets every concurrent part's threads. After each run the table is checked against what was
 * acknowledged.
 */
final class JdbcScenario implements ScenarioBench {
    static final String INSERT_VARIANT = "insert";
    static final String TX_VARIANT = "tx";
    static final String READ_VARIANT = "read";
    /** The baseline whose transactions begin {@code IMMEDIATE}. */
    static final String IMMEDIATE_HIKARI = "hikari-imm";
    static final int INSERT_THREADS = 64;
    static final int TX_THREADS = 16;
    static final int JPA_THREADS = 32;
    static final int READ_THREADS = 8;

    private static final String SELECT_COUNTER = "SELECT v FROM counter WHERE id = 1";
    private static final String UPDATE_COUNTER = "UPDATE counter SET v = ? WHERE id = 1";
    private static final String SELECT_ROW = "SELECT payload FROM bench WHERE id = ?";

    /** Opens one side's data source on a file, and closes what it opened. */
    private interface Side extends AutoCloseable {
        DataSource dataSource();

        @Override
        void close() throws SQLException;
    }

    /** Opens a side on a fresh or filled file. */
    @FunctionalInterface
    private interface Opener {
        Side open(Path file) throws Exception;
    }

    private final BenchOptions options;
    private final Path directory;
    private final WorkloadRunner runner;

    JdbcScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
        this.runner = new WorkloadRunner(options.warmup(), options.durationFor(Scenario.JDBC));
    }

    @Override
    public Scenario scenario() {
        return Scenario.JDBC;
    }

    @Override
    public String description() {
        List<Synchronous> levels = options.synchronousFor(Scenario.JDBC);
        return "the same JDBC code on db.dataSource() and on: HikariCP (" + HikariSystem.POOL_SIZE
                + " connections) for " + threads(INSERT_THREADS) + " threads' auto-commit inserts"
                + " (synchronous " + levels.stream().map(Enum::name)
                        .collect(Collectors.joining(", "))
                + ") and " + threads(TX_THREADS) + " threads' TransactionTemplate + JdbcClient"
                + " read-then-write transactions (also against HikariCP with IMMEDIATE"
                + " transactions); " + threads(JPA_THREADS) + " threads' Hibernate units of"
                + " work against HikariCP with IMMEDIATE transactions (synchronous "
                + levels.stream().map(Enum::name).collect(Collectors.joining(", "))
                + "), and in PetClinic's mix (3 read-only units per write unit; Lanes' reader"
                + " wait reported); one raw connection for a lone transaction; "
                + threads(READ_THREADS) + " raw connections for as many threads' point reads"
                + " (transactions, the mix and reads at " + levels.get(0) + ")";
    }

    @Override
    public int plannedComparisons() {
        return options.synchronousFor(Scenario.JDBC).size() * 2 + 5;
    }

    private int threads(int standard) {
        return options.threads() != null ? options.threads() : standard;
    }

    @Override
    public void run(Sink sink) throws Exception {
        List<Synchronous> levels = options.synchronousFor(Scenario.JDBC);
        int inserters = threads(INSERT_THREADS);
        for (Synchronous sync : levels) {
            sink.compare(
                    rep -> inserts(sink, rep, "lanes", sync, inserters,
                            file -> lanes(options.lanesDatabase(), file, sync, inserters, 0,
                                    MetricsListener.NONE)),
                    rep -> inserts(sink, rep, "hikari", sync, inserters,
                            file -> hikari(file, sync)));
        }
        Synchronous sync = levels.get(0);
        int transactors = threads(TX_THREADS);
        sink.compare(
                rep -> transactions(sink, rep, "lanes", "hikari", sync, transactors,
                        file -> lanes(options.lanesDatabase(), file, sync, transactors, 0,
                                MetricsListener.NONE)),
                rep -> transactions(sink, rep, "hikari", "lanes", sync, transactors,
                        file -> hikari(file, sync)));
        sink.compare(
                rep -> transactions(sink, rep, "lanes", IMMEDIATE_HIKARI, sync, transactors,
                        file -> lanes(options.lanesDatabase(), file, sync, transactors, 0,
                                MetricsListener.NONE)),
                rep -> transactions(sink, rep, IMMEDIATE_HIKARI, "lanes", sync, transactors,
                        file -> hikari(file, sync, SQLiteConfig.TransactionMode.IMMEDIATE)));
        sink.compare(
                rep -> transactions(sink, rep, "lanes", "raw", sync, 1,
                        file -> lanes(options.lanesDatabase(), file, sync, 1, 0,
                                MetricsListener.NONE)),
                rep -> transactions(sink, rep, "raw", "lanes", sync, 1,
                        file -> oneConnection(file, sync)));

        hibernateParts(sink, levels);

        int readers = threads(READ_THREADS);
        Path filled = directory.resolve("jdbc-read-" + level(sync) + ".db");
        sink.status("jdbc: filling " + filled.getFileName() + " with "
                + String.format(Locale.ROOT, "%,d", ReadScenario.ROWS) + " rows");
        ReadScenario.fill(filled, sync);
        sink.compare(
                rep -> reads(sink, "lanes", sync, readers, filled,
                        file -> lanes(options.lanesDatabase(), file, sync, readers, readers,
                                MetricsListener.NONE)),
                rep -> reads(sink, "raw", sync, readers, filled, JdbcScenario::readOnlyConnections));
    }

    /**
     * The {@value JpaWorkload#VARIANT} part at every level, then the {@value
     * JpaWorkload#MIX_VARIANT} part at the first.
     */
    private void hibernateParts(Sink sink, List<Synchronous> levels) throws Exception {
        Synchronous sync = levels.get(0);
        int units = threads(JPA_THREADS);
        String jpa = JpaWorkload.VARIANT;
        for (Synchronous level : levels) {
            sink.compare(
                    rep -> units(sink, rep, jpa, "lanes", level, units, null,
                            file -> lanes(options.lanesDatabase(), file, level, units, 0,
                                    MetricsListener.NONE)),
                    rep -> units(sink, rep, jpa, IMMEDIATE_HIKARI, level, units, null,
                            file -> hikari(file, level, SQLiteConfig.TransactionMode.IMMEDIATE)));
        }
        String mix = JpaWorkload.MIX_VARIANT;
        sink.compare(
                rep -> {
                    ReaderWaits waits = new ReaderWaits();
                    return units(sink, rep, mix, "lanes", sync, units, waits,
                            file -> lanes(options.lanesDatabase(), file, sync, units, 0, waits))
                            .withReaderWait(waits.latency());
                },
                rep -> units(sink, rep, mix, IMMEDIATE_HIKARI, sync, units, null,
                        file -> hikari(file, sync, SQLiteConfig.TransactionMode.IMMEDIATE)));
    }

    // ------------------------------------------------------------------ the sides

    /**
     * Lanes: a runtime with one database on {@code base}, {@code readers} reader connections (0:
     * the default), reporting to {@code metrics}.
     */
    private static Side lanes(DatabaseOptions.Builder base, Path file, Synchronous sync,
            int threads, int readers, MetricsListener metrics) {
        DatabaseOptions.Builder b = base
                .synchronous(sync)
                .busyTimeout(Duration.ofMillis(BenchSystem.BUSY_TIMEOUT_MS))
                // each thread has at most one statement in flight: none is refused admission
                .writeQueueCapacity(Math.max(DatabaseOptions.DEFAULTS.writeQueueCapacity(),
                        threads));
        if (readers > 0) {
            b.readers(readers);
        }
        Lanes lanes = Lanes.builder().name("bench").metrics(metrics).build();
        try {
            Database db = lanes.open(file, b.build());
            db.whenReady().join();
            return new Side() {
                @Override
                public DataSource dataSource() {
                    return db.dataSource();
                }

                @Override
                public void close() {
                    lanes.close();
                }
            };
        } catch (RuntimeException e) {
            lanes.close();
            throw e;
        }
    }

    private static Side hikari(Path file, Synchronous sync) {
        return hikari(file, sync, SQLiteConfig.TransactionMode.DEFERRED);
    }

    private static Side hikari(Path file, Synchronous sync, SQLiteConfig.TransactionMode mode) {
        HikariDataSource pool =
                HikariSystem.openPool(BaselineConnections.dataSource(file, sync, mode));
        return new Side() {
            @Override
            public DataSource dataSource() {
                return pool;
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    /** One raw sqlite-jdbc connection behind a data source that never closes it. */
    private static Side oneConnection(Path file, Synchronous sync) throws SQLException {
        Connection raw = BaselineConnections.dataSource(file, sync).getConnection();
        SingleConnectionDataSource single = new SingleConnectionDataSource(raw, true);
        return new Side() {
            @Override
            public DataSource dataSource() {
                return single;
            }

            @Override
            public void close() throws SQLException {
                raw.close();
            }
        };
    }

    /** Read-only sqlite-jdbc connections, one per {@code getConnection()}, as raw JDBC has. */
    private static Side readOnlyConnections(Path file) {
        DataSource ds = BaselineConnections.readOnlyDataSource(file);
        return new Side() {
            @Override
            public DataSource dataSource() {
                return ds;
            }

            @Override
            public void close() {} // each reading thread closes its own connection
        };
    }

    // ------------------------------------------------------------------ the workloads

    private RunResult inserts(Sink sink, int repetition, String system, Synchronous sync,
            int threads, Opener opener) throws Exception {
        Path file = fresh(INSERT_VARIANT, system, sync, threads, repetition);
        sink.runStarting(label(INSERT_VARIANT, system, sync, threads));
        try (Side side = opener.open(file)) {
            DataSource ds = side.dataSource();
            execute(ds, BenchSystem.CREATE_TABLE);
            Measurement m = runner.run("jdbc-insert-" + system, thread -> {
                String payload = Payloads.of(thread);
                return () -> {
                    insert(ds, payload);
                    return INSERT_VARIANT;
                };
            }, threads);
            Consistency rows = new Consistency("rows in bench", m.acknowledged(),
                    scalar(ds, BenchSystem.COUNT_ROWS));
            return RunResult.of(Scenario.JDBC, INSERT_VARIANT, sync, system, threads, m, rows);
        }
    }

    /**
     * One auto-commit single-row insert as pooled JDBC code writes it: borrow a connection,
     * prepare, execute, close.
     */
    static void insert(DataSource ds, String payload) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement insert = c.prepareStatement(BenchSystem.INSERT)) {
            insert.setString(1, payload);
            insert.executeUpdate();
        }
    }

    /** @param against the other side of the comparison: its runs and this one's use other files */
    private RunResult transactions(Sink sink, int repetition, String system, String against,
            Synchronous sync, int threads, Opener opener) throws Exception {
        Path file = fresh(TX_VARIANT, system + "-vs-" + against, sync, threads, repetition);
        sink.runStarting(label(TX_VARIANT, system, sync, threads));
        try (Side side = opener.open(file)) {
            DataSource ds = side.dataSource();
            execute(ds, "CREATE TABLE counter(id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
            execute(ds, "INSERT INTO counter(id, v) VALUES (1, 0)");
            TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
            JdbcClient client = JdbcClient.create(ds);
            Measurement m = runner.run("jdbc-tx-" + system, thread -> () -> {
                tx.executeWithoutResult(status -> {
                    long v = client.sql(SELECT_COUNTER).query(Long.class).single();
                    client.sql(UPDATE_COUNTER).param(v + 1).update();
                });
                return TX_VARIANT;
            }, threads);
            Consistency counter = new Consistency("counter value", m.acknowledged(),
                    scalar(ds, SELECT_COUNTER));
            return RunResult.of(Scenario.JDBC, TX_VARIANT, sync, system, threads, m, counter);
        }
    }

    /**
     * The {@value JpaWorkload#VARIANT} or {@value JpaWorkload#MIX_VARIANT} part on one side;
     * {@code window}, when not null, is told the measured window. The visits table is checked
     * against the visits added, warm-up included.
     */
    private RunResult units(Sink sink, int repetition, String variant, String system,
            Synchronous sync, int threads, WorkloadRunner.WindowListener window, Opener opener)
            throws Exception {
        Path file = fresh(variant, system, sync, threads, repetition);
        sink.runStarting(label(variant, system, sync, threads));
        try (Side side = opener.open(file)) {
            DataSource ds = side.dataSource();
            JpaWorkload.createSchema(ds);
            try (SessionFactory sf = JpaWorkload.sessionFactory(ds)) {
                JpaWorkload.prime(sf);
                LongAdder visitsAdded = new LongAdder();
                boolean mixed = variant.equals(JpaWorkload.MIX_VARIANT);
                Measurement m = runner.run("jdbc-" + variant + "-" + system, thread -> mixed
                        ? JpaWorkload.mixedUnit(sf, new SplittableRandom(thread), visitsAdded)
                        : JpaWorkload.unit(sf, new SplittableRandom(thread), visitsAdded),
                        threads, window);
                Consistency visits = new Consistency("visits", visitsAdded.sum(),
                        scalar(ds, JpaWorkload.COUNT_VISITS));
                return RunResult.of(Scenario.JDBC, variant, sync, system, threads, m, visits);
            }
        }
    }

    private RunResult reads(Sink sink, String system, Synchronous sync, int threads, Path file,
            Opener opener) throws Exception {
        sink.runStarting(label(READ_VARIANT, system, sync, threads));
        try (Side side = opener.open(file)) {
            DataSource ds = side.dataSource();
            Measurement m = runner.run("jdbc-read-" + system,
                    thread -> new PointReader(ds, new SplittableRandom(thread)), threads);
            return RunResult.of(Scenario.JDBC, READ_VARIANT, sync, system, threads, m, null);
        }
    }

    /** One reading thread: its own connection and statement, prepared once. */
    private static final class PointReader implements Operation {
        private final Connection connection;
        private final PreparedStatement select;
        private final SplittableRandom random;

        PointReader(DataSource ds, SplittableRandom random) throws SQLException {
            this.connection = ds.getConnection();
            try {
                this.select = connection.prepareStatement(SELECT_ROW);
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
            this.random = random;
        }

        @Override
        public String run() throws SQLException {
            long id = 1 + random.nextInt(ReadScenario.ROWS);
            select.setLong(1, id);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("row " + id + " not found");
                }
                rs.getString(1);
            }
            return READ_VARIANT;
        }

        @Override
        public void close() throws SQLException {
            try {
                select.close();
            } finally {
                connection.close();
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private Path fresh(String variant, String system, Synchronous sync, int threads,
            int repetition) {
        return directory.resolve("jdbc-" + variant + "-" + system + "-" + level(sync) + "-"
                + threads + "-r" + repetition + ".db");
    }

    private static String level(Synchronous sync) {
        return sync.name().toLowerCase(Locale.ROOT);
    }

    private static String label(String variant, String system, Synchronous sync, int threads) {
        return "jdbc " + variant + ": " + system + ", " + threads + " thread"
                + (threads == 1 ? "" : "s") + ", " + sync;
    }

    static void execute(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    static long scalar(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

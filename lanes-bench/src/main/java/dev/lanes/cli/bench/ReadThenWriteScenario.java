package dev.lanes.cli.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import dev.lanes.Transaction;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The read-then-write scenario: every transaction reads a counter and writes it back plus one,
 * from {@code threads} threads at once. Lanes runs it as an interactive transaction ({@code
 * db.begin()}, {@code tx.query}, {@code tx.execute}, {@code tx.commit}), which holds the write
 * lock from its first statement. The baseline is a HikariCP pool of sqlite-jdbc connections
 * doing what most JDBC code does: {@code setAutoCommit(false)} (a plain, deferred {@code BEGIN}),
 * {@code SELECT}, {@code UPDATE}, {@code commit()}, rolling back on failure; SQLite then refuses
 * many of those upgrades from reader to writer with {@code SQLITE_BUSY}, which the run counts by
 * kind. Successful transactions per second are compared, and after each run the counter is
 * checked against the transactions that committed: no increment may be lost.
 */
final class ReadThenWriteScenario implements ScenarioBench {
    static final String CREATE =
            "CREATE TABLE counter(id INTEGER PRIMARY KEY, v INTEGER NOT NULL)";
    static final String SEED = "INSERT INTO counter(id, v) VALUES (1, 0)";
    static final String SELECT = "SELECT v FROM counter WHERE id = 1";
    static final String UPDATE = "UPDATE counter SET v = ? WHERE id = 1";

    private final BenchOptions options;
    private final Path directory;
    private final WorkloadRunner runner;

    ReadThenWriteScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
        this.runner = new WorkloadRunner(options.warmup(), options.durationFor(Scenario.RTW));
    }

    @Override
    public Scenario scenario() {
        return Scenario.RTW;
    }

    @Override
    public String description() {
        return options.threadsFor(Scenario.RTW) + " threads each SELECT a counter and UPDATE it"
                + " in one transaction: Lanes db.begin() vs HikariCP (" + HikariSystem.POOL_SIZE
                + " connections) with setAutoCommit(false); synchronous "
                + options.synchronousFor(Scenario.RTW).stream().map(Enum::name)
                        .collect(Collectors.joining(", "));
    }

    @Override
    public int plannedComparisons() {
        return options.synchronousFor(Scenario.RTW).size();
    }

    @Override
    public void run(Sink sink) throws Exception {
        int threads = options.threadsFor(Scenario.RTW);
        for (Synchronous sync : options.synchronousFor(Scenario.RTW)) {
            String level = sync.name().toLowerCase(Locale.ROOT);
            sink.compare(
                    rep -> measureLanes(sink,
                            directory.resolve("rtw-lanes-" + level + "-r" + rep + ".db"), sync,
                            threads),
                    rep -> measureHikari(sink,
                            directory.resolve("rtw-hikari-" + level + "-r" + rep + ".db"), sync,
                            threads));
        }
    }

    private RunResult measureLanes(Sink sink, Path file, Synchronous sync, int threads)
            throws Exception {
        sink.runStarting(label("lanes", sync, threads));
        DatabaseOptions dbOptions = options.lanesDatabase()
                .synchronous(sync)
                .busyTimeout(Duration.ofMillis(BenchSystem.BUSY_TIMEOUT_MS))
                // each thread has at most one transaction waiting: none is refused admission
                .writeQueueCapacity(Math.max(DatabaseOptions.DEFAULTS.writeQueueCapacity(), threads))
                .build();
        try (Lanes lanes = Lanes.builder().name("bench").build()) {
            Database db = lanes.open(file, dbOptions);
            db.execute(CREATE);
            db.execute(SEED);
            Measurement m = runner.run("rtw-lanes", thread -> () -> {
                incrementThroughLanes(db);
                return "transaction";
            }, threads);
            long counter = db.query(SELECT).get(0).getLong("v");
            return RunResult.of(Scenario.RTW, "", sync, "lanes", threads, m,
                    new Consistency("counter value", m.acknowledged(), counter));
        }
    }

    private RunResult measureHikari(Sink sink, Path file, Synchronous sync, int threads)
            throws Exception {
        sink.runStarting(label("hikari", sync, threads));
        try (HikariDataSource pool = HikariSystem.openPool(file, sync)) {
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.execute(CREATE);
                s.execute(SEED);
            }
            Measurement m = runner.run("rtw-hikari", thread -> () -> {
                incrementThroughPool(pool);
                return "transaction";
            }, threads);
            long counter;
            try (Connection c = pool.getConnection()) {
                counter = readCounter(c);
            }
            return RunResult.of(Scenario.RTW, "", sync, "hikari", threads, m,
                    new Consistency("counter value", m.acknowledged(), counter));
        }
    }

    /** Lanes' read-then-write: an interactive transaction, holding the write lock throughout. */
    static void incrementThroughLanes(Database db) {
        try (Transaction tx = db.begin()) {
            long v = tx.query(SELECT).get(0).getLong("v");
            tx.execute(UPDATE, v + 1);
            tx.commit();
        }
    }

    /** The JDBC read-then-write most applications write; a failure rolls back and is thrown. */
    static void incrementThroughPool(DataSource pool) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try {
                long v = readCounter(c);
                try (PreparedStatement update = c.prepareStatement(UPDATE)) {
                    update.setLong(1, v + 1);
                    update.executeUpdate();
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
    }

    private static long readCounter(Connection c) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(SELECT);
                ResultSet rs = select.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String label(String system, Synchronous sync, int threads) {
        return "rtw: " + system + ", " + threads + " threads, " + sync;
    }
}

package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The virtual-thread scenario: {@value #FEW} and then {@value #MANY} clients, each a virtual
 * thread, against Lanes and against a HikariCP pool of sqlite-jdbc connections (the pool of
 * {@link HikariSystem}) on the same kind of threads, in three shapes:
 *
 * <ul>
 *   <li>{@value #JDBC}: auto-commit single-row inserts through {@code db.dataSource()}, the
 *       insert of {@link JdbcScenario} (borrow a connection, prepare, execute, close);
 *   <li>{@value #EXECUTE}: the same inserts through {@code db.execute}, as in {@link
 *       WriteScenario}; HikariCP runs the same JDBC insert in both;
 *   <li>{@value #RTW}: the read-then-write transaction of {@link ReadThenWriteScenario}: {@code
 *       db.begin()} against {@code setAutoCommit(false)} on the pool.
 * </ul>
 *
 * Lanes runs with its default write queue: a write that finds it full waits for room up to
 * {@code writeQueueTimeout} and then fails, which the run counts by kind with every other
 * failure. Each run also counts the {@value PinnedEvents#EVENT} events of its measured window
 * ({@link PinnedEvents}) and the clients that had a request answered in it ({@link
 * RunResult#served()}): virtual threads are not time-sliced, so a client whose requests never
 * block keeps its carrier thread and the others may wait unscheduled all the window long. {@code --threads} replaces both client counts with its one. Where the
 * JVM has no virtual threads (before JDK 21) the scenario runs nothing and says why.
 */
final class VirtualThreadScenario implements ScenarioBench {
    static final int FEW = 1_000;
    static final int MANY = 10_000;
    static final String JDBC = "jdbc";
    static final String EXECUTE = "execute";
    static final String RTW = "rtw";
    private static final List<String> SHAPES = List.of(JDBC, EXECUTE, RTW);

    /** One client's request, given the text it writes. */
    @FunctionalInterface
    private interface Request {
        void run(String payload) throws Exception;
    }

    /** What the database holds afterwards, to check against the acknowledged requests. */
    @FunctionalInterface
    private interface Found {
        long count() throws Exception;
    }

    /** One system opened on a fresh file for one shape: what clients repeat, and the check. */
    private static final class Client implements AutoCloseable {
        final BenchSystem system;
        final Request request;
        final String subject;
        final Found found;

        Client(BenchSystem system, Request request, String subject, Found found) {
            this.system = system;
            this.request = request;
            this.subject = subject;
            this.found = found;
        }

        @Override
        public void close() throws SQLException {
            system.close();
        }
    }

    private final BenchOptions options;
    private final Path directory;
    private final ThreadFactory virtual;
    private final WorkloadRunner runner;

    VirtualThreadScenario(BenchOptions options, Path directory) {
        this.options = options;
        this.directory = directory;
        this.virtual = VirtualThreads.factory();
        this.runner = virtual == null ? null : new WorkloadRunner(options.warmup(),
                options.durationFor(Scenario.VT), virtual);
    }

    @Override
    public Scenario scenario() {
        return Scenario.VT;
    }

    /** The client counts it runs: {@code --threads}, else {@value #FEW} and {@value #MANY}. */
    List<Integer> clients() {
        return options.threads() != null ? List.of(options.threads()) : List.of(FEW, MANY);
    }

    @Override
    public String description() {
        if (virtual == null) {
            return "skipped: " + VirtualThreads.unavailable();
        }
        DatabaseOptions defaults = DatabaseOptions.DEFAULTS;
        return clients().stream().map(n -> String.format(Locale.ROOT, "%,d", n))
                .collect(Collectors.joining(" and "))
                + " virtual-thread clients: inserts through db.dataSource() (jdbc) and db.execute"
                + " (execute), db.begin() read-then-write transactions (rtw), against HikariCP ("
                + HikariSystem.POOL_SIZE + " connections) on virtual threads too; Lanes' default"
                + " write queue (" + defaults.writeQueueCapacity() + " writes, waiting up to "
                + ReportTable.human(defaults.writeQueueTimeout()) + " for room); pinned: "
                + PinnedEvents.EVENT + " events (threshold 0 ms, outside class loading) in the"
                + " window; served: clients"
                + " with a request answered in it; synchronous "
                + options.synchronousFor(Scenario.VT).stream().map(Enum::name)
                        .collect(Collectors.joining(", "));
    }

    @Override
    public int plannedComparisons() {
        return virtual == null ? 0
                : options.synchronousFor(Scenario.VT).size() * clients().size() * SHAPES.size();
    }

    @Override
    public void run(Sink sink) throws Exception {
        if (virtual == null) {
            return;
        }
        for (Synchronous sync : options.synchronousFor(Scenario.VT)) {
            for (int clients : clients()) {
                for (String shape : SHAPES) {
                    sink.compare(rep -> measure(sink, rep, shape, "lanes", sync, clients),
                            rep -> measure(sink, rep, shape, "hikari", sync, clients));
                }
            }
        }
    }

    private RunResult measure(Sink sink, int repetition, String shape, String system,
            Synchronous sync, int clients) throws Exception {
        String name = "vt-" + shape + "-" + system + "-" + sync.name().toLowerCase(Locale.ROOT)
                + "-" + clients + "-r" + repetition;
        sink.runStarting(String.format(Locale.ROOT, "vt %s: %s, %,d virtual threads, %s", shape,
                system, clients, sync));
        try (Client client = open(shape, system, directory.resolve(name + ".db"), sync);
                PinnedEvents pinned = PinnedEvents.start(directory.resolve(name + ".jfr"))) {
            Measurement m = runner.run(name, thread -> {
                String payload = Payloads.of(thread);
                return () -> {
                    client.request.run(payload);
                    return shape;
                };
            }, clients);
            long pinnedInWindow = pinned.countWithin(m.windowStart(), m.windowEnd());
            Consistency check = new Consistency(client.subject, m.acknowledged(),
                    client.found.count());
            return RunResult.of(Scenario.VT, shape, sync, system, clients, m, check)
                    .withPinned(pinnedInWindow);
        }
    }

    private Client open(String shape, String system, Path file, Synchronous sync)
            throws Exception {
        BenchSystem opened = system.equals("lanes")
                ? LanesSystem.open(file, options.lanesDatabase().synchronous(sync)
                        .busyTimeout(Duration.ofMillis(BenchSystem.BUSY_TIMEOUT_MS)).build())
                : HikariSystem.open(file, sync);
        try {
            return opened instanceof LanesSystem
                    ? lanes((LanesSystem) opened, shape) : hikari((HikariSystem) opened, shape);
        } catch (Exception | Error e) {
            opened.close();
            throw e;
        }
    }

    private static Client lanes(LanesSystem lanes, String shape) {
        Database db = lanes.database();
        switch (shape) {
            case JDBC:
                DataSource ds = db.dataSource();
                return rows(lanes, payload -> JdbcScenario.insert(ds, payload));
            case EXECUTE:
                return rows(lanes, lanes::insert);
            default:
                db.execute(ReadThenWriteScenario.CREATE);
                db.execute(ReadThenWriteScenario.SEED);
                return new Client(lanes,
                        payload -> ReadThenWriteScenario.incrementThroughLanes(db),
                        "counter value",
                        () -> db.query(ReadThenWriteScenario.SELECT).get(0).getLong("v"));
        }
    }

    /** HikariCP runs the same JDBC insert for {@value #JDBC} and {@value #EXECUTE}. */
    private static Client hikari(HikariSystem hikari, String shape) throws SQLException {
        if (!shape.equals(RTW)) {
            return rows(hikari, hikari::insert);
        }
        DataSource pool = hikari.dataSource();
        JdbcScenario.execute(pool, ReadThenWriteScenario.CREATE);
        JdbcScenario.execute(pool, ReadThenWriteScenario.SEED);
        return new Client(hikari, payload -> ReadThenWriteScenario.incrementThroughPool(pool),
                "counter value", () -> JdbcScenario.scalar(pool, ReadThenWriteScenario.SELECT));
    }

    private static Client rows(BenchSystem system, Request insert) {
        return new Client(system, insert, "rows in bench", system::countRows);
    }
}

package dev.lanes;

import dev.lanes.internal.engine.LanesRuntime;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Timer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The Lanes runtime: one bounded pool of platform threads that runs every database opened
 * through it. Create one per process (or per isolated subsystem) and close it at shutdown.
 *
 * <pre>{@code
 * try (Lanes lanes = Lanes.create()) {
 *     Database db = lanes.open(Path.of("app.db"));
 *     db.execute("CREATE TABLE IF NOT EXISTS t(v TEXT)");
 *     db.execute("INSERT INTO t(v) VALUES (?)", "x");
 * }
 * }</pre>
 */
public final class Lanes implements AutoCloseable {
    /** Environment variable that sets the default {@link Builder#maxThreads(int)}. */
    public static final String WORKER_THREADS_ENV = "LANES_WORKER_THREADS";

    /** Reports runtimes collected without close; the action holds the engine, never this. */
    private static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create();

    private final LanesRuntime runtime;

    private Lanes(Builder b) {
        this.runtime = b.clock == null
                ? new LanesRuntime(b.name, b.maxThreads, b.threadStackSize, b.metrics,
                        b.maxOpenConnections, b.sqliteSoftHeapLimit)
                : new LanesRuntime(b.name, b.maxThreads, b.threadStackSize, b.metrics,
                        b.maxOpenConnections, b.sqliteSoftHeapLimit, b.clock, b.timer);
        if (b.registerMBeans) {
            runtime.registerMBeans(b.mbeanServer != null ? b.mbeanServer
                    : java.lang.management.ManagementFactory.getPlatformMBeanServer(),
                    b.maxDatabaseMBeans);
        }
        if (b.checkpointsOnWriter) {
            runtime.confineCheckpointsToWriter();
        }
        LanesRuntime engine = runtime;
        CLEANER.register(this, engine::abandoned);
    }

    /** A runtime with the defaults. */
    public static Lanes create() {
        return builder().build();
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens the database at {@code path} with {@link DatabaseOptions#DEFAULTS}, creating the file
     * if needed. Opening the same canonical path again returns the same {@link Database}.
     */
    public Database open(Path path) {
        Objects.requireNonNull(path, "path");
        // no options: the open database as it is, or a new one with the defaults, built there
        // (not DEFAULTS) so that a bad LANES_DISK_RESERVE_BYTES fails the open, naming it
        return runtime.open(path, null);
    }

    /**
     * Opens the database at {@code path} with these options. Opening the same canonical path
     * again, or another name of the same file (a hard link), while it is open, returns the same
     * {@link Database} (whatever options are passed then). The connection opens on first use; a database that cannot open fails every request
     * with {@link DatabaseDeadException}.
     *
     * <p>The runtime owns the file from here until its close completes: it holds an OS lock on one
     * byte of a lock file in {@code .lanes-lock/} beside it (shared by the databases of that
     * directory), taken before SQLite opens the file and released once every connection closed
     * (a killed process leaves no lock behind). A directory's leases cost this process at most 256
     * file descriptors, however many of its databases are open.
     *
     * <p>The file is opened by its very name. A name the driver would read otherwise is
     * refused: one holding {@code ?} (sqlite-jdbc takes what follows for connection settings and
     * opens the name before it), and the names {@code :memory:} and {@code file:...}.
     *
     * @throws DatabaseLockedException when another process, or another runtime of this JVM, has
     *     the database open; nothing is opened then
     * @throws InvalidRequestException when the name would open another file, or none
     */
    public Database open(Path path, DatabaseOptions options) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        return runtime.open(path, options);
    }

    /**
     * Opens database {@code name} on a replicated SQLite cluster, run by this runtime as a local
     * database is: the same {@link Database} interface, writer lane, group commit and outcomes.
     * Opening the same name on the same engine again, while it is open, returns the same {@link
     * Database}. The first open connects to the leader (within {@link
     * DatabaseOptions#busyTimeout()}) and creates the table {@code _lanes_groups}, where every
     * transaction records a group id so that a commit interrupted by the loss of the leader is
     * resolved, never guessed and never re-run blindly.
     *
     * <pre>{@code
     * Database db = lanes.openCluster(DqliteCluster.of("10.0.0.1:9001", "10.0.0.2:9001",
     *         "10.0.0.3:9001"), "app", DatabaseOptions.DEFAULTS);
     * }</pre>
     *
     * <p>What differs from a local database: {@code maintenance}, {@code checkpoint} and {@code
     * backup} are refused with {@link InvalidRequestException} (the nodes own their files);
     * reads ({@code query}, read bodies) run on sessions of their own with the leader; a write
     * returns no rows ({@code RETURNING} is refused); a body's connection has no driver
     * connection to {@code unwrap} to; change notifications carry the version only, no tables. Options that only a local file has
     * ({@code synchronous}, {@code checkpointMode}, {@code identityCheck}, {@code
     * diskReserveBytes}, {@code initializer}) are refused here, naming the option, unless left at
     * their defaults; {@code statementCacheSize} and {@code idleRelease} are ignored. The engine
     * stays the caller's: closing the database does not close it.
     *
     * @param engine the cluster, such as {@code dev.lanes.dqlite.DqliteCluster}
     * @param name the database's name on the cluster
     * @throws InvalidRequestException for an option a cluster cannot honour, naming it
     * @throws DatabaseDeadException when no leader answered within the busy timeout
     */
    public Database openCluster(dev.lanes.spi.ClusterEngine engine, String name,
            DatabaseOptions options) {
        return dev.lanes.internal.cluster.ClusterDatabase.open(runtime, engine, name, options);
    }

    /** A point-in-time view of the runtime and its thread pool. */
    public RuntimeDiagnostics diagnostics() {
        return runtime.diagnostics();
    }

    /**
     * Closes every database (each draining its accepted work), then stops the threads. Throws
     * {@link CloseTimeoutException} when a database did not close in time; that close goes on in
     * the background, with its reads still running stopped, as {@link Database#close()} does
     * past its timeout.
     */
    @Override
    public void close() {
        runtime.close();
    }

    /** Builds a {@link Lanes} runtime. */
    public static final class Builder {
        /** The default of {@link #maxDatabaseMBeans(int)}. */
        public static final int DEFAULT_MAX_DATABASE_MBEANS = 1_000;

        private String name = "lanes";
        private int maxThreads = defaultMaxThreads();
        private long threadStackSize = 512 * 1024;
        private MetricsListener metrics = MetricsListener.NONE;
        private int maxOpenConnections;
        private long sqliteSoftHeapLimit;
        private boolean registerMBeans;
        private javax.management.MBeanServer mbeanServer;
        private int maxDatabaseMBeans = DEFAULT_MAX_DATABASE_MBEANS;
        private boolean maxDatabaseMBeansSet;
        private Clock clock;
        private Timer timer;
        private boolean checkpointsOnWriter;

        private Builder() {}

        private static int defaultMaxThreads() {
            String env = System.getenv(WORKER_THREADS_ENV);
            if (env == null || env.isBlank()) {
                return 64;
            }
            try {
                return Checks.positive(WORKER_THREADS_ENV, Integer.parseInt(env.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        WORKER_THREADS_ENV + " must be a whole number, was '" + env + "'", e);
            }
        }

        /** Names the runtime's threads ({@code name-worker-N}). */
        public Builder name(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank, was '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /**
         * The cap on pool threads shared by every database (default: env {@value
         * #WORKER_THREADS_ENV}, else 64). Threads start lazily, only when no thread is free.
         */
        public Builder maxThreads(int maxThreads) {
            this.maxThreads = Checks.positive("maxThreads", maxThreads);
            return this;
        }

        /**
         * The stack size of each pool thread, in bytes (default 512 KiB), so that many threads
         * never imply many default-sized stacks. At least 128 KiB.
         */
        public Builder threadStackSize(long bytes) {
            if (bytes < 128 * 1024) {
                throw new IllegalArgumentException(
                        "threadStackSize must be at least 131072 bytes, was " + bytes);
            }
            this.threadStackSize = bytes;
            return this;
        }

        /**
         * Caps the SQLite connections open across the runtime (0, the default: no cap). Past
         * the cap, idle databases lose their connections in least-recently-used order and reopen
         * them transparently on next use; their lease stays held and the identity check runs
         * again on reopen. This is what lets one process host far more databases than it has
         * file descriptors. The cap is enforced by evicting in the background, so it can be
         * passed briefly by the connections being opened at that moment.
         *
         * <p>The cap is a bound, not a goal. Each SQLite open walks a process-wide list of the
         * database files open, so every connection kept open makes every open slower; it pays
         * for that only when it is reused. While fewer than a quarter of the requests find their
         * connection open and databases are being evicted, the runtime keeps only a thirty-second
         * of the cap open (at least 64); it doubles the number back each second once more than
         * half would have found theirs open under the whole cap (those that did, and those
         * whose database was closed so recently that the cap would have kept it).
         *
         * <p>Each connection holds about three file descriptors (the database file, its WAL and
         * its shared-memory file), and SQLite keeps a closed connection's descriptor while
         * another connection of the same file holds a lock. Size the cap for the process's
         * descriptor limit with headroom: about {@code 0.9 * (limit - other files) / 3}. A cap
         * with none ran 10,000 tenants out of descriptors, and an open then fails {@code
         * SQLITE_CANTOPEN} (a {@code ReadFailedException} or a write {@code NOT_STARTED}).
         */
        public Builder maxOpenConnections(int max) {
            this.maxOpenConnections = Checks.nonNegative("maxOpenConnections", max);
            return this;
        }

        /**
         * SQLite's process-wide soft heap limit in bytes ({@code sqlite3_soft_heap_limit64}):
         * past it SQLite frees cache memory before allocating more. 0, the default, leaves
         * SQLite's own setting. It applies to every SQLite database in the process.
         */
        public Builder sqliteSoftHeapLimit(long bytes) {
            this.sqliteSoftHeapLimit = Checks.nonNegative("sqliteSoftHeapLimit", bytes);
            return this;
        }

        /** Where the runtime reports its metrics; see {@link MetricsListener}. */
        public Builder metrics(MetricsListener metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /**
         * Registers management beans (JMX MXBeans) for the runtime and its databases (default
         * false); see {@link dev.lanes.jmx}. They go on the platform MBean server unless {@link
         * #mbeanServer} names another.
         */
        public Builder registerMBeans(boolean register) {
            this.registerMBeans = register;
            return this;
        }

        /**
         * The MBean server the beans go on (default: the platform MBean server). Needs {@link
         * #registerMBeans(boolean) registerMBeans(true)}.
         */
        public Builder mbeanServer(javax.management.MBeanServer server) {
            this.mbeanServer = Objects.requireNonNull(server, "server");
            return this;
        }

        /**
         * The most databases that have a management bean at a time (default {@value
         * #DEFAULT_MAX_DATABASE_MBEANS}): past it, databases open without one and one warning
         * says so, so that a runtime of many databases does not flood the MBean server. Needs
         * {@link #registerMBeans(boolean) registerMBeans(true)}.
         */
        public Builder maxDatabaseMBeans(int max) {
            this.maxDatabaseMBeans = Checks.nonNegative("maxDatabaseMBeans", max);
            this.maxDatabaseMBeansSet = true;
            return this;
        }

        /**
         * Test seam, not API: runs the runtime's timeouts and deadlines on {@code clock} and
         * {@code timer} (a manual clock of the tests) instead of the system's. Package-private
         * so that users never see it.
         */
        Builder clock(Clock clock, Timer timer) {
            this.clock = Objects.requireNonNull(clock, "clock");
            this.timer = Objects.requireNonNull(timer, "timer");
            return this;
        }

        /**
         * Test seam, not API: the runtime runs every checkpoint on each database's writer
         * connection, as it does on a SQLite with the WAL-reset bug (see {@link SqliteInfo}).
         * Package-private so that users never see it.
         */
        Builder checkpointsOnWriter() {
            this.checkpointsOnWriter = true;
            return this;
        }

        /**
         * Builds the runtime.
         *
         * @throws IllegalStateException when {@link #mbeanServer} or {@link #maxDatabaseMBeans}
         *     was set without {@link #registerMBeans(boolean) registerMBeans(true)}
         */
        public Lanes build() {
            if (!registerMBeans && (mbeanServer != null || maxDatabaseMBeansSet)) {
                throw new IllegalStateException((mbeanServer != null ? "mbeanServer"
                        : "maxDatabaseMBeans") + " was set, but registerMBeans is false; call "
                        + "registerMBeans(true) to register management beans");
            }
            return new Lanes(this);
        }
    }
}

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
     * again, while it is open, returns the same {@link Database} (whatever options are passed
     * then). The connection opens on first use; a database that cannot open fails every request
     * with {@link DatabaseDeadException}.
     *
     * <p>The runtime owns the file from here until its close completes: it holds an OS lock on one
     * byte of a lock file in {@code .lanes-lock/} beside it (shared by the databases of that
     * directory), taken before SQLite opens the file and released once every connection closed
     * (a killed process leaves no lock behind). A directory's leases cost this process at most 256
     * file descriptors, however many of its databases are open.
     *
     * @throws DatabaseLockedException when another process, or another runtime of this JVM, has
     *     the database open; nothing is opened then
     */
    public Database open(Path path, DatabaseOptions options) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        return runtime.open(path, options);
    }

    /** A point-in-time view of the runtime and its thread pool. */
    public RuntimeDiagnostics diagnostics() {
        return runtime.diagnostics();
    }

    /**
     * Closes every database (each draining its accepted work), then stops the threads. Throws
     * {@link CloseTimeoutException} when a database did not close in time; that close goes on in
     * the background.
     */
    @Override
    public void close() {
        runtime.close();
    }

    /** Builds a {@link Lanes} runtime. */
    public static final class Builder {
        private String name = "lanes";
        private int maxThreads = defaultMaxThreads();
        private long threadStackSize = 512 * 1024;
        private MetricsListener metrics = MetricsListener.NONE;
        private int maxOpenConnections;
        private long sqliteSoftHeapLimit;
        private Clock clock;
        private Timer timer;

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
         * Test seam, not API: runs the runtime's timeouts and deadlines on {@code clock} and
         * {@code timer} (a manual clock of the tests) instead of the system's. Package-private
         * so that users never see it.
         */
        Builder clock(Clock clock, Timer timer) {
            this.clock = Objects.requireNonNull(clock, "clock");
            this.timer = Objects.requireNonNull(timer, "timer");
            return this;
        }

        public Lanes build() {
            return new Lanes(this);
        }
    }
}

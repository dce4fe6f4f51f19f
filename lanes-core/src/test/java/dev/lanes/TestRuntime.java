package dev.lanes;

import dev.lanes.internal.util.ManualClock;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A Lanes runtime and a temporary directory for one test, closed and checked after it:
 *
 * <pre>{@code
 * @RegisterExtension final TestRuntime runtime = TestRuntime.create();
 *
 * @Test void something() {
 *     Database db = runtime.openWithTable("a.db");   // t(id INTEGER PRIMARY KEY, v TEXT)
 *     ...
 * }
 * }</pre>
 *
 * <p>The runtime starts on first use, with the settings of {@link #builder()} ({@link #create()}:
 * named {@code test}, 8 threads), or with the test's own through {@link #start(Lanes.Builder)}.
 * After the test (after its own {@code @AfterEach} methods, which may release what holds the
 * runtime) every runtime it started is closed, and the test fails if a close timed out ({@link
 * CloseTimeoutException}) or if a non-daemon thread started during the test is still alive a
 * while later; then the directory is deleted.
 *
 * <p>{@link Builder#clock(ManualClock)} runs the runtime on a manual clock, through a test seam
 * of {@link Lanes.Builder}; only tests in the internal packages use it, since the clock is
 * internal. {@link Builder#checkpointsOnWriter()} confines checkpoints to the writer, as on a
 * SQLite with the WAL-reset bug, through another.
 *
 * <p>Set up and checked by the test's own thread (the one running the test method). The test's
 * runtime may be asked for from any thread: {@link #runtimes} guards {@link #lanes} and {@link
 * #started}, so that threads that race to the first {@link #lanes()} share one runtime.
 */
public final class TestRuntime implements BeforeEachCallback, AfterEachCallback {
    /** How long a thread started by the test may take to end once the runtime closed. */
    private static final Duration THREAD_GRACE = Duration.ofSeconds(10);

    private final Builder settings;
    private final ReentrantLock runtimes = new ReentrantLock();
    private final List<Lanes> started = new ArrayList<>();
    private Lanes lanes;
    private Path dir;
    private Set<Thread> threadsBefore;

    private TestRuntime(Builder settings) {
        this.settings = settings;
    }

    /** A runtime named {@code test} with 8 threads. */
    public static TestRuntime create() {
        return builder().build();
    }

    /** A runtime with the defaults of {@link Lanes#create()}: named {@code lanes}, 64 threads. */
    public static TestRuntime withLanesDefaults() {
        Builder b = builder();
        b.lanesDefaults = true;
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The settings of a {@link TestRuntime}; the same names as {@link Lanes.Builder}'s. */
    public static final class Builder {
        private String name = "test";
        private int maxThreads = 8;
        private int maxOpenConnections;
        private long threadStackSize;
        private long sqliteSoftHeapLimit;
        private MetricsListener metrics;
        private ManualClock clock;
        private boolean checkpointsOnWriter;
        private boolean lanesDefaults;
        private Duration threadGrace = THREAD_GRACE;

        private Builder() {}

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder maxThreads(int maxThreads) {
            this.maxThreads = maxThreads;
            return this;
        }

        public Builder maxOpenConnections(int max) {
            this.maxOpenConnections = max;
            return this;
        }

        public Builder threadStackSize(long bytes) {
            this.threadStackSize = bytes;
            return this;
        }

        public Builder sqliteSoftHeapLimit(long bytes) {
            this.sqliteSoftHeapLimit = bytes;
            return this;
        }

        public Builder metrics(MetricsListener metrics) {
            this.metrics = metrics;
            return this;
        }

        /** Runs every runtime of the test on {@code clock}, which is also its timer. */
        public Builder clock(ManualClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Runs every checkpoint on each database's writer connection, as on a SQLite with the
         * WAL-reset bug, through a test seam of {@link Lanes.Builder}.
         */
        public Builder checkpointsOnWriter() {
            this.checkpointsOnWriter = true;
            return this;
        }

        /**
         * How long a non-daemon thread the test started may outlive the runtime's close before
         * the test fails (default 10 s).
         */
        public Builder threadGrace(Duration grace) {
            this.threadGrace = Objects.requireNonNull(grace, "grace");
            return this;
        }

        public TestRuntime build() {
            return new TestRuntime(this);
        }

        private Lanes.Builder lanesBuilder() {
            if (lanesDefaults) {
                return Lanes.builder();
            }
            Lanes.Builder b = Lanes.builder().name(name).maxThreads(maxThreads);
            if (maxOpenConnections > 0) {
                b.maxOpenConnections(maxOpenConnections);
            }
            if (threadStackSize > 0) {
                b.threadStackSize(threadStackSize);
            }
            if (sqliteSoftHeapLimit > 0) {
                b.sqliteSoftHeapLimit(sqliteSoftHeapLimit);
            }
            if (metrics != null) {
                b.metrics(metrics);
            }
            return b;
        }
    }

    // ------------------------------------------------------------------ the test's view

    /** The test's runtime, started now with this extension's settings if it is not yet. */
    public Lanes lanes() {
        runtimes.lock();
        try {
            if (lanes == null) {
                lanes = launch(settings.lanesBuilder());
            }
            return lanes;
        } finally {
            runtimes.unlock();
        }
    }

    /**
     * Starts the test's runtime from {@code builder} instead of this extension's settings (the
     * clock, if any, is still this extension's). Only before {@link #lanes()} was first used.
     */
    public Lanes start(Lanes.Builder builder) {
        runtimes.lock();
        try {
            if (lanes != null) {
                throw new IllegalStateException("the test's runtime is started already");
            }
            lanes = launch(builder);
            return lanes;
        } finally {
            runtimes.unlock();
        }
    }

    /** A further runtime with this extension's settings; see {@link #another(Lanes.Builder)}. */
    public Lanes another() {
        return launch(settings.lanesBuilder());
    }

    /**
     * A further runtime for the test, from {@code builder} (on this extension's clock, if any),
     * closed and checked after the test like the test's own.
     */
    public Lanes another(Lanes.Builder builder) {
        return launch(builder);
    }

    private Lanes launch(Lanes.Builder builder) {
        if (dir == null) {
            throw new IllegalStateException("TestRuntime is used outside a test; register it "
                    + "with @RegisterExtension on an instance field");
        }
        if (settings.clock != null) {
            builder.clock(settings.clock, settings.clock);
        }
        if (settings.checkpointsOnWriter) {
            builder.checkpointsOnWriter();
        }
        Lanes l = builder.build();
        runtimes.lock();
        try {
            started.add(l);
        } finally {
            runtimes.unlock();
        }
        return l;
    }

    /** The manual clock of the runtime; fails when it runs on the system clock. */
    public ManualClock clock() {
        if (settings.clock == null) {
            throw new IllegalStateException("this runtime runs on the system clock");
        }
        return settings.clock;
    }

    /** The test's temporary directory, deleted after the test. */
    public Path dir() {
        if (dir == null) {
            throw new IllegalStateException("TestRuntime is used outside a test");
        }
        return dir;
    }

    /** {@code name} in the test's directory. */
    public Path path(String name) {
        return dir().resolve(name);
    }

    /** Opens {@code name} in the test's directory with the defaults. */
    public Database open(String name) {
        return lanes().open(path(name));
    }

    public Database open(String name, DatabaseOptions options) {
        return lanes().open(path(name), options);
    }

    /** Opens {@code name} and creates {@code t(id INTEGER PRIMARY KEY, v TEXT)} in it. */
    public Database openWithTable(String name) {
        return openWithTable(name, DatabaseOptions.DEFAULTS);
    }

    public Database openWithTable(String name, DatabaseOptions options) {
        return TestLanes.withTable(open(name, options));
    }

    /**
     * Closes every runtime of the test now, as {@link Lanes#close()} does (a late close throws
     * {@link CloseTimeoutException}); for tests that look at the files afterwards. Idempotent.
     */
    public void close() {
        List<Lanes> toClose;
        runtimes.lock();
        try {
            toClose = new ArrayList<>(started);
            started.clear();
        } finally {
            runtimes.unlock();
        }
        RuntimeException failure = null;
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    // ------------------------------------------------------------------ the extension

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        threadsBefore = new HashSet<>(Thread.getAllStackTraces().keySet());
        dir = Files.createTempDirectory("lanes-" + context.getRequiredTestClass().getSimpleName()
                + "-");
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Throwable failure = null;
        try {
            close();
        } catch (RuntimeException e) {
            failure = new AssertionError("the runtime did not close cleanly after the test: "
                    + e, e);
        }
        try {
            checkNoThreadLeft();
        } catch (AssertionError e) {
            failure = add(failure, e);
        }
        try {
            delete(dir);
        } catch (IOException e) {
            failure = add(failure, e);
        }
        if (failure instanceof Exception) {
            throw (Exception) failure;
        }
        if (failure != null) {
            throw (Error) failure;
        }
    }

    private static Throwable add(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    /** Fails when a non-daemon thread started during the test outlives it by the grace time. */
    private void checkNoThreadLeft() {
        long deadline = System.nanoTime() + settings.threadGrace.toNanos();
        List<Thread> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!t.isDaemon() && !threadsBefore.contains(t) && t != Thread.currentThread()) {
                left.add(t);
            }
        }
        for (Thread t : left) {
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                t.join(Math.max(1, remaining));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<Thread> alive = left.stream().filter(Thread::isAlive).collect(Collectors.toList());
        if (!alive.isEmpty()) {
            throw new AssertionError("the test left non-daemon threads running "
                    + settings.threadGrace.toMillis() + " ms after its runtime closed: "
                    + alive.stream().map(t -> t.getName() + " (" + t.getState() + ")")
                            .collect(Collectors.toList()));
        }
    }

    /** Deletes the directory and everything in it (links are removed, never followed). */
    private static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs)
                    throws IOException {
                Files.delete(f);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}

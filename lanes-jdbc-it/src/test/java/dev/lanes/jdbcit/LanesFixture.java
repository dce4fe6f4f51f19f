package dev.lanes.jdbcit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * A scratch directory, a Lanes runtime on it and whatever the test opened beside (HikariCP
 * pools, thread pools), closed after each test in reverse order. Every wait is bounded by
 * {@link #WAIT}.
 */
final class LanesFixture implements AfterEachCallback {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final int BUSY_TIMEOUT_MS = 5000;

    private Path dir;
    private Lanes lanes;
    private final List<AutoCloseable> opened = new ArrayList<>();

    Path dir() {
        if (dir == null) {
            try {
                dir = Files.createTempDirectory("lanes-jdbc-it");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    Lanes lanes() {
        if (lanes == null) {
            lanes = Lanes.builder().name("jdbc-it").build();
        }
        return lanes;
    }

    Database open(String name) {
        return open(name, DatabaseOptions.builder().build());
    }

    Database open(String name, DatabaseOptions options) {
        return lanes().open(dir().resolve(name), options);
    }

    /**
     * The usual pool: HikariCP over sqlite-jdbc connections in WAL mode with a busy timeout of
     * {@value #BUSY_TIMEOUT_MS} ms, {@code size} connections.
     */
    HikariDataSource hikari(String name, int size) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        SQLiteDataSource sqlite = new SQLiteDataSource(config);
        sqlite.setUrl("jdbc:sqlite:" + dir().resolve(name).toAbsolutePath());
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("it-" + name);
        hikari.setDataSource(sqlite);
        hikari.setMaximumPoolSize(size);
        hikari.setMinimumIdle(size);
        return closeAfter(new HikariDataSource(hikari));
    }

    <T extends AutoCloseable> T closeAfter(T resource) {
        opened.add(resource);
        return resource;
    }

    /**
     * Runs {@code task} on {@code threads} platform threads that start together, and returns
     * their results in thread order; a thread's exception fails the call.
     */
    <T> List<T> onThreads(int threads, ThreadTask<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int index = i;
                Callable<T> call = () -> {
                    start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    return task.run(index);
                };
                futures.add(pool.submit(call));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                results.add(f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One thread's work in {@link #onThreads}. */
    @FunctionalInterface
    interface ThreadTask<T> {
        T run(int thread) throws Exception;
    }

    /**
     * Waits until {@code condition} holds, checking every millisecond, at most {@link #WAIT}: for
     * a state that has no event to wait on (a write sitting in the queue).
     */
    static void awaitCondition(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Exception failure = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                failure = failure == null ? e : failure;
            }
        }
        if (lanes != null) {
            lanes.close();
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

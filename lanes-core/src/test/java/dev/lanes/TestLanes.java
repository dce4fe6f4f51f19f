package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.sqlite.SQLiteConfig;

/**
 * Shared fixture code for the Lanes tests beside {@link TestRuntime}: the table {@code t} most
 * tests write to, a way to hold a writer lane busy at a known point, and bounded waits. Every
 * wait here is bounded by {@link #WAIT}; nothing sleeps to order events.
 */
public final class TestLanes {
    /** The bound on every wait in the tests; far above what any step needs. */
    public static final Duration WAIT = Duration.ofSeconds(30);

    private TestLanes() {}

    /** Creates {@code t(id INTEGER PRIMARY KEY, v TEXT)} in {@code db} and returns it. */
    public static Database withTable(Database db) {
        db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
        return db;
    }

    /** Opens {@code dir/name} in {@code lanes} with {@code options}, with the table {@code t}. */
    public static Database openWithTable(Lanes lanes, Path dir, String name,
            DatabaseOptions options) {
        return withTable(lanes.open(dir.resolve(name), options));
    }

    /** {@code SELECT count(*) FROM t WHERE v LIKE pattern}, on a connection of its own. */
    public static long rawCount(Path file, String pattern) throws SQLException {
        return rawCount(file, "SELECT count(*) FROM t WHERE v LIKE ?", pattern);
    }

    /** {@code sqlite_version()} of the driver on the class path, outside any runtime. */
    public static String sqliteVersion() throws SQLException {
        try (Connection raw = new SQLiteConfig().createConnection("jdbc:sqlite::memory:");
                PreparedStatement s = raw.prepareStatement("SELECT sqlite_version()");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * A one-number query with at most one argument, on a read-only connection of its own, outside
     * any runtime.
     */
    public static long rawCount(Path file, String sql, String arg) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection raw = config.createConnection("jdbc:sqlite:" + file);
                PreparedStatement s = raw.prepareStatement(sql)) {
            if (arg != null) {
                s.setString(1, arg);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A write body that inserts {@code v} into {@code t} and returns it. */
    public static SqlFunction<String> insert(String v) {
        return c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                s.setString(1, v);
                s.executeUpdate();
            }
            return v;
        };
    }

    /** How many rows of {@code t} hold {@code v}. */
    public static long countOf(Database db, String v) {
        return db.query("SELECT count(*) AS n FROM t WHERE v = ?", v).get(0).getLong("n");
    }

    /** The single long of a one-row, one-column query. */
    public static long scalar(Database db, String sql, Object... args) {
        Object value = db.query(sql, args).get(0).get(0);
        return ((Number) value).longValue();
    }

    /**
     * Holds the database's writer lane: queues a write whose body waits until {@link
     * Blocker#release()}, and returns once that body runs. Writes queued meanwhile wait behind it
     * and form the next commit group.
     */
    public static Blocker block(Database db) {
        return block(db, c -> "blocker");
    }

    /** {@link #block(Database)}, running {@code afterRelease} in the body once released. */
    public static Blocker block(Database db, SqlFunction<?> afterRelease) {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> future = db.writeAsync(c -> {
            started.countDown();
            if (!release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the test never released the blocker");
            }
            return (Object) afterRelease.apply(c);
        });
        await(started, "the blocking body to start");
        return new Blocker(release, future);
    }

    /** A body holding a writer lane; releasing it twice is harmless. */
    public static final class Blocker implements AutoCloseable {
        final CountDownLatch release;
        public final CompletableFuture<Object> future;

        Blocker(CountDownLatch release, CompletableFuture<Object> future) {
            this.release = release;
            this.future = future;
        }

        public void release() {
            release.countDown();
        }

        @Override
        public void close() {
            release();
        }
    }

    /**
     * Holds one of the database's readers: starts an asynchronous read whose body waits until
     * {@link ReaderHolder#close()}, and returns once that body runs.
     */
    public static ReaderHolder holdReader(Database db) {
        return new ReaderHolder(db);
    }

    /** A read holding a reader until closed; {@link #read} completes once it let go. */
    public static final class ReaderHolder implements AutoCloseable {
        private final CountDownLatch inside = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        public final CompletableFuture<String> read;

        ReaderHolder(Database db) {
            read = db.readAsync(c -> {
                inside.countDown();
                if (!release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("never released");
                }
                return "holder";
            });
            await(inside, "the holder to take the reader");
        }

        @Override
        public void close() {
            release.countDown();
        }
    }

    public static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("timed out waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted waiting for " + what);
        }
    }

    /** The value of a future that must complete normally within {@link #WAIT}. */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("expected success, but the request failed: " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the request did not complete within " + WAIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * The failure as the runtime recorded it (what a metrics listener is told) behind {@code
     * thrown}, the exception a synchronous caller got: that is a copy made on the caller's
     * thread, with the recorded one attached as suppressed, or the recorded one itself.
     */
    public static Throwable asRecorded(Throwable thrown) {
        for (Throwable s : thrown.getSuppressed()) {
            if (s.getClass() == thrown.getClass()
                    && java.util.Objects.equals(s.getMessage(), thrown.getMessage())) {
                return s;
            }
        }
        return thrown;
    }

    /** The failure of a future that must complete exceptionally within {@link #WAIT}. */
    public static LanesException failureOf(CompletableFuture<?> future) {
        try {
            Object value = future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("expected a failure, but the request returned " + value);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(LanesException.class);
            return (LanesException) e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the request did not complete within " + WAIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Waits until {@code condition} holds, checking every millisecond, for at most {@link #WAIT}.
     * For states that other threads reach (a thread parked in a wait, a database closing), not
     * for ordering by time.
     */
    public static void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Waits until the runtime's pool runs nothing and has nothing queued. */
    public static void awaitPoolQuiet(Lanes lanes) {
        awaitTrue("the pool to run everything queued", () -> {
            RuntimeDiagnostics d = lanes.diagnostics();
            return d.busyThreads() == 0 && d.runnableForeground() == 0
                    && d.runnableBackground() == 0;
        });
    }

    /** Waits until {@code thread} parks in a wait (so it is inside the call it was started for). */
    public static void awaitParked(Thread thread, Thread.State state) {
        awaitTrue(thread.getName() + " to be " + state, () -> thread.getState() == state);
    }
}

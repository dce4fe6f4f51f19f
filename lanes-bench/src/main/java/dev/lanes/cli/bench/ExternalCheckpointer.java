package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What Litestream does to a database it replicates, as far as Lanes can tell: it holds a plain
 * connection of its own to the file, outside the runtime, and every so often runs {@code PRAGMA
 * wal_checkpoint(TRUNCATE)} on it, with a busy timeout, to move the WAL back into the database
 * and start the WAL over. The soak's {@code CheckpointMode.EXTERNAL} databases rely on it: Lanes
 * never checkpoints them, so their WAL stays bounded only while this runs.
 *
 * <h2>Concurrency</h2>
 * One platform thread of its own owns the connections: it opens them, checkpoints through them
 * and closes them; no other thread touches them. The counters are atomics, read from any
 * thread. {@link #stop} ends the thread's wait between passes; {@link #close} counts it down and
 * joins the thread.
 */
final class ExternalCheckpointer implements AutoCloseable {
    private final List<Path> files;
    private final Synchronous synchronous;
    private final long periodNanos;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong busy = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();
    private final AtomicReference<Throwable> openFailure = new AtomicReference<>();
    private final Thread thread;

    /**
     * Starts checkpointing {@code files} (databases that exist, in WAL mode) every {@code
     * period}, and returns once its connections are open.
     *
     * @throws SQLException when a connection cannot be opened
     */
    ExternalCheckpointer(List<Path> files, Synchronous synchronous, Duration period)
            throws SQLException, InterruptedException {
        this.files = List.copyOf(files);
        this.synchronous = synchronous;
        this.periodNanos = period.toNanos();
        this.thread = new Thread(this::run, "soak-external-checkpointer");
        thread.setDaemon(true);
        thread.start();
        opened.await();
        Throwable failed = openFailure.get();
        if (failed != null) {
            thread.join();
            if (failed instanceof SQLException) {
                throw (SQLException) failed;
            }
            throw new IllegalStateException("the external checkpointer could not start", failed);
        }
    }

    private void run() {
        List<Connection> connections = new ArrayList<>(files.size());
        try {
            try {
                for (Path file : files) {
                    connections.add(
                            BaselineConnections.dataSource(file, synchronous).getConnection());
                }
            } catch (SQLException | RuntimeException e) {
                openFailure.set(e);
                return;
            } finally {
                opened.countDown();
            }
            while (!stop.await(periodNanos, TimeUnit.NANOSECONDS)) {
                for (Connection c : connections) {
                    checkpoint(c);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (Connection c : connections) {
                try {
                    c.close();
                } catch (SQLException e) {
                    failures.incrementAndGet();
                    lastFailure.set("close: " + e.getMessage());
                }
            }
        }
    }

    private void checkpoint(Connection c) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            // one row: busy (1 when it could not finish), WAL frames, frames checkpointed
            rs.next();
            if (rs.getInt(1) == 0) {
                completed.incrementAndGet();
            } else {
                busy.incrementAndGet();
            }
        } catch (SQLException e) {
            failures.incrementAndGet();
            lastFailure.set(e.getMessage());
        }
    }

    /** What it did so far. */
    SoakResult.ExternalCheckpoints counts() {
        return new SoakResult.ExternalCheckpoints(completed.get(), busy.get(), failures.get(),
                lastFailure.get());
    }

    /** Stops after the pass under way, if any, and closes its connections. */
    @Override
    public void close() throws InterruptedException {
        stop.countDown();
        thread.join();
    }
}

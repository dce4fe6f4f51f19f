package dev.lanes.internal.cluster;

import dev.lanes.ClosedException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.text.Shapes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The read bodies of a cluster database off the lane: each on a read-only connection of the
 * database's data source in manual-commit mode, so that its statements all read one snapshot on
 * one read session ({@link ReadSessionTransaction}), behind the read guard a local read body has.
 * The connection closes when the body returns, which ends the snapshot and gives the session
 * back. Stateless.
 */
final class ReadBodies {
    private ReadBodies() {}

    /**
     * Runs {@code body} on a read-only connection of {@code dataSource}. A failure is the Lanes
     * exception behind it: the guard's refusal, the data source's (the cause of the SQL
     * exception the body let out), else a {@link ReadFailedException}, as on a local reader.
     */
    static <T> T run(String name, DataSource dataSource, Shapes shapes, SqlFunction<T> body) {
        Connection c;
        try {
            c = dataSource.getConnection();
        } catch (SQLException e) {
            throw new ClosedException(e.getMessage(), e); // the one refusal: closed
        }
        try (Connection connection = c) {
            connection.setReadOnly(true);
            connection.setAutoCommit(false); // its first statement takes the snapshot
            return ConnectionGuard.read(name, connection,
                    ConnectionGuard.StopCheck.NONE, shapes).run(body, false);
        } catch (Exception e) {
            throw failure(name, e);
        }
    }

    private static LanesException failure(String name, Exception e) {
        if (e instanceof LanesException) {
            return (LanesException) e;
        }
        if (e instanceof SQLException && e.getCause() instanceof LanesException) {
            return (LanesException) e.getCause();
        }
        return new ReadFailedException(WriteOutcome.ROLLED_BACK, name + ": the read failed: " + e,
                e);
    }

    /** {@code read} as a turn of {@code pool}; the future fails with what the read throws. */
    static <T> CompletableFuture<T> async(WorkerPool pool, Supplier<T> read) {
        CompletableFuture<T> done = new CompletableFuture<>();
        pool.submit(new WorkerPool.Task() {
            @Override
            public void runTurn() {
                try {
                    done.complete(read.get());
                } catch (RuntimeException | Error e) {
                    done.completeExceptionally(e);
                }
            }

            @Override
            public boolean background() {
                return false;
            }
        });
        return done;
    }
}

package dev.lanes.internal.writer;

import dev.lanes.DatabaseOptions;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.notify.TransactionStateListeners;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Timer;
import dev.lanes.spi.CommitFence;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * What a writer lane is given by its database: where it writes, how, on which threads and time,
 * how it gets its connection, and what it tells the database.
 *
 * @param name the database's name, for messages, logs and metrics
 * @param path the canonical path of the database file
 * @param connector opens the writer connection whenever the lane needs one
 * @param events told of the lane's use and close
 * @param shapes the runtime's statement shapes, for the SQL of interactive transactions
 */
public record LaneSetup(String name, Path path, DatabaseOptions options, WorkerPool pool,
        Clock clock, Timer timer, ConnectionBudget budget, MetricsReporter metrics,
        TransactionStateListeners transactionListeners, WriterConnector connector,
        DiskReserve diskReserve, Events events, Shapes shapes) {

    /** What the lane tells its database; called on the lane's holder, with no lock held. */
    public interface Events {
        /** A turn served requests: the database was just used. */
        void used();

        /** The writer connection closed for good; called before the lane's close completes. */
        void closed();
    }

    /**
     * Waits, on the caller's thread, until the database's commit fence acknowledges what this
     * caller committed ({@link CommitFence#awaitAcknowledgement}); does nothing without a fence.
     * Every write that commits calls it once before returning to its caller, whatever its entry
     * point: the database's writes, an interactive transaction's commit, the data source's.
     */
    public void acknowledge() {
        CommitFence fence = options.commitFence();
        if (fence != null) {
            fence.awaitAcknowledgement();
        }
    }

    /**
     * {@code committed}, completing once the fence acknowledged it ({@link #acknowledge}, on a
     * thread of the common pool, since the wait blocks): the form of an asynchronous write.
     * {@code committed} itself without a fence.
     */
    public <T> CompletableFuture<T> acknowledged(CompletableFuture<T> committed) {
        if (options.commitFence() == null) {
            return committed;
        }
        return committed.thenApplyAsync(v -> {
            acknowledge();
            return v;
        }, ForkJoinPool.commonPool());
    }
}

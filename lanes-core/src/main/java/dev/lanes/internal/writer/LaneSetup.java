package dev.lanes.internal.writer;

import dev.lanes.DatabaseOptions;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.notify.TransactionStateListeners;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Timer;
import java.nio.file.Path;
import java.sql.SQLException;
import org.sqlite.SQLiteConnection;

/**
 * What a writer lane is given by its database: where it writes, how, on which threads and time,
 * the guards of its file, and what it tells the database.
 *
 * @param name the database's name, for messages, logs and metrics
 * @param path the canonical path of the database file
 * @param events told of the lane's connection and use
 */
public record LaneSetup(String name, Path path, DatabaseOptions options, WorkerPool pool,
        Clock clock, Timer timer, ConnectionBudget budget, MetricsReporter metrics,
        TransactionStateListeners transactionListeners, Identity identity,
        DiskReserve diskReserve, Events events) {

    /** What the lane tells its database; called on the lane's holder, with no lock held. */
    public interface Events {
        /** The writer connection opened and was checked: it may apply process-wide limits. */
        void writerOpened(SQLiteConnection connection) throws SQLException;

        /** A turn served requests: the database was just used. */
        void used();

        /** The writer connection closed for good; called before the lane's close completes. */
        void closed();
    }
}

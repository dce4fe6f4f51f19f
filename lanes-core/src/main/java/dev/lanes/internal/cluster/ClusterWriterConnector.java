package dev.lanes.internal.cluster;

import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.writer.WriterConnection;
import dev.lanes.internal.writer.WriterConnector;
import dev.lanes.internal.writer.WriterCounters;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterSession;
import java.time.Duration;

/**
 * Opens the writer connection of a cluster database: a session with the leader (found within
 * {@code busyTimeout}), on which the {@link GroupLedger}'s table is created if it is missing.
 * The lane opens it once; the connection then finds a new leader by itself. Stateless but for
 * its settings.
 */
final class ClusterWriterConnector implements WriterConnector {
    private final String name;
    private final ClusterEngine engine;
    private final String database;
    private final Duration busyTimeout;
    private final long maxResultBytes;
    private final GroupLedger ledger;
    private final Resolutions resolutions;
    private final ConnectionBudget budget;
    private final SchemaCopy schema;
    private final Shapes shapes;
    private final ClusterDatabase db;

    ClusterWriterConnector(ClusterDatabase db, String name, ClusterEngine engine, String database,
            Duration busyTimeout, long maxResultBytes, GroupLedger ledger,
            Resolutions resolutions, ConnectionBudget budget, SchemaCopy schema, Shapes shapes) {
        this.db = db;
        this.shapes = shapes;
        this.name = name;
        this.engine = engine;
        this.database = database;
        this.busyTimeout = busyTimeout;
        this.maxResultBytes = maxResultBytes;
        this.ledger = ledger;
        this.resolutions = resolutions;
        this.budget = budget;
        this.schema = schema;
    }

    /** The fault injector is SQLite's and does not apply here. */
    @Override
    public WriterConnection open(FaultInjector faults, WriterCounters counters) {
        ClusterSession session = engine.open(database, busyTimeout);
        try {
            ledger.create(session);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        budget.opened(); // the lane tells the budget when it closes the connection
        return new ClusterWriterConnection(db, name, engine, database, busyTimeout, maxResultBytes,
                ledger, counters, resolutions, schema, session, shapes);
    }
}

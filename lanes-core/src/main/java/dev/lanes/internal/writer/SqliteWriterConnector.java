package dev.lanes.internal.writer;

import dev.lanes.DatabaseOptions;
import dev.lanes.internal.file.Identity;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.sqlite.SqliteConnections;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.function.Consumer;
import org.sqlite.SQLiteConnection;

/**
 * Opens the writer connection of a database file: WAL, the options' {@code synchronous}, busy
 * timeout and checkpoint ownership; counts it against the connection budget; checks the file's
 * {@link Identity} (and confirms the lease); applies the user's {@link ConnectionSettings};
 * then tells the database, which may apply
 * process-wide limits and make it a candidate for eviction. A connection that fails a check is
 * closed before the failure is thrown. Stateless but for its settings.
 */
public final class SqliteWriterConnector implements WriterConnector {
    private final String name;
    private final Path path;
    private final DatabaseOptions options;
    private final Identity identity;
    private final ConnectionBudget budget;
    private final Consumer<SQLiteConnection> opened;
    private final ConnectionSettings settings;
    private final Shapes shapes;

    public SqliteWriterConnector(String name, Path path, DatabaseOptions options,
            Identity identity, ConnectionBudget budget, Consumer<SQLiteConnection> opened,
            Shapes shapes) {
        this.shapes = shapes;
        this.name = name;
        this.path = path;
        this.options = options;
        this.identity = identity;
        this.budget = budget;
        this.opened = opened;
        this.settings = ConnectionSettings.of(options);
    }

    @Override
    public WriterConnection open(FaultInjector faults, WriterCounters counters) throws Exception {
        SQLiteConnection raw = SqliteConnections.openWriter(path, options.synchronous(),
                options.busyTimeout(), options.checkpointMode());
        SqliteWriterConnection c = new SqliteWriterConnection(name, raw,
                options.statementCacheSize(), options.busyTimeout(), options.maxResultBytes(),
                faults, counters, shapes);
        budget.opened();
        try {
            SqliteConnections.restrict(raw, SqliteConnections.Limits.writer(options));
            identity.onWriterOpened(raw);
            settings.apply(raw, ConnectionSettings.Role.WRITER);
            opened.accept(raw);
            return c;
        } catch (Exception | Error e) {
            try {
                c.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            budget.closed();
            throw e;
        }
    }
}

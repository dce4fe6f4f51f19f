package dev.lanes.internal.engine;

import dev.lanes.Database;
import dev.lanes.ReadOptions;
import dev.lanes.TransactionOptions;
import dev.lanes.internal.jdbc.JdbcBackend;
import dev.lanes.internal.reader.ReadSnapshot;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.writer.InteractiveTransaction;
import java.time.Duration;
import java.util.List;

/**
 * What the data source's connections need of one database: its reads through the database's
 * routing, its writes, batches and transactions through its lane, each admitted as the native
 * API's are. Stateless but for the database.
 */
final class DatabaseJdbc implements JdbcBackend {
    private final DatabaseImpl db;

    DatabaseJdbc(DatabaseImpl db) {
        this.db = db;
    }

    @Override
    public String name() {
        return db.name();
    }

    @Override
    public Database database() {
        return db;
    }

    @Override
    public ResultData queryData(ReadOptions options, StatementShape shape, String sql,
            Object[] args, Paging paging) {
        return db.routing().queryData(options, shape, sql, args, paging);
    }

    @Override
    public Object write(StatementShape shape, Object[] args, Returns returns,
            Duration startTimeout) {
        return db.runAndAcknowledge(db.lane().statement(shape, args, returns), startTimeout);
    }

    @Override
    public Shapes shapes() {
        return db.shapes();
    }

    @Override
    public int attachLimit() {
        return db.options().maxAttachedDatabases();
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> batch, Duration startTimeout) {
        return db.runAndAcknowledge(db.batch(batch), startTimeout);
    }

    @Override
    public InteractiveTransaction begin(Duration startTimeout) {
        return db.runAndWait(db.lane().begin(TransactionOptions.DEFAULTS), startTimeout);
    }

    @Override
    public ReadSnapshot snapshot(ReadOptions options) {
        return db.routing().snapshot(options);
    }
}

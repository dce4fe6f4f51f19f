package dev.lanes.internal.cluster;

import dev.lanes.LanesException;
import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.jdbc.LanesDataSource;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.WriteTransaction;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.spi.ClusterException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * The {@link java.sql.Connection} a maintenance body gets on a cluster database ({@code
 * db.maintenance}): a connection of the data source in auto-commit mode whose statements run on
 * the writer lane's session with the leader, outside any transaction, as a local maintenance body's
 * run on the writer connection without the transaction wrap. Each statement commits (and is
 * replicated) on its own, so a failure after one of them is the lane's {@code UNKNOWN}.
 *
 * <p>Its statements are admitted as a write body's ({@link ClusterBackend#writePolicy}): the
 * guard's rules first, then the cluster's ({@code RETURNING}, and the pragmas a cluster leaves to
 * its nodes, such as {@code wal_checkpoint}). What the leader itself refuses fails as its
 * statement, with the server's message. A query reads on the same session, so the body sees what
 * it wrote. The connection cannot leave auto-commit mode (the guard refuses it), so it never holds
 * a transaction open.
 *
 * <p>Confinement: the writer connection's; used only by the thread that holds the lane's turn.
 */
final class MaintenanceJdbc extends ClusterBackend {
    private final SchemaCopy schema;
    private final ClusterWriterConnection writer;
    private final LanesDataSource connections = new LanesDataSource(this);

    MaintenanceJdbc(ClusterDatabase db, SchemaCopy schema, ClusterWriterConnection writer) {
        super(db);
        this.schema = schema;
        this.writer = writer;
    }

    /** Runs {@code body} on a guarded connection in auto-commit mode ({@link #runGuarded}). */
    Object run(SqlFunction<?> body) throws Exception {
        return runGuarded(connections.getConnection(), false, body);
    }

    @Override
    public ResultData queryData(ReadOptions options, StatementShape shape, String sql,
            Object[] args, Paging paging) {
        try {
            return ClusterSql.resultData(writer.queryWithColumns(sql, args), schema, sql);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    @Override
    public Object write(StatementShape shape, Object[] args, Returns returns,
            Duration startTimeout) {
        try {
            return writer.execute(shape, args == null ? new Object[0] : args, returns);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Statement by statement, each committing on its own, as the body's statements do. */
    @Override
    public int[] executeBatch(List<dev.lanes.Statement> batch, Duration startTimeout) {
        int[] counts = new int[batch.size()];
        for (int i = 0; i < counts.length; i++) {
            dev.lanes.Statement s = batch.get(i);
            counts[i] = (Integer) write(db.shapes().of(s.sql()), s.args().toArray(), Returns.COUNT,
                    startTimeout);
        }
        return counts;
    }

    /** The schema the leader has now, the body's own DDL included. */
    @Override
    public <T> T metaData(SqlFunction<T> body) throws Exception {
        return schema.runOn(writer.query(SchemaCopy.SCHEMA, new Object[0]), body);
    }

    /** The guard refuses setAutoCommit, so a maintenance body's connection never gets here. */
    @Override
    public WriteTransaction begin(Duration startTimeout) {
        throw autoCommitOnly();
    }

    /** The guard refuses setReadOnly, so a maintenance body's connection never gets here. */
    @Override
    public ReadTransaction snapshot(ReadOptions options) {
        throw autoCommitOnly();
    }

    /**
     * A statement of the body failed on its own: nothing of it applied, unless the session says
     * it may have run (then whether it committed is unknown). The body decides whether it goes
     * on; the lane reports its outcome from what committed before.
     */
    private LanesException failed(SQLException e) {
        boolean mayHaveRun = e.getCause() instanceof ClusterException
                && ((ClusterException) e.getCause()).kind() == ClusterException.Kind.MAY_HAVE_RUN;
        return new WriteFailedException(mayHaveRun ? WriteOutcome.UNKNOWN
                : WriteOutcome.ROLLED_BACK, db.name() + ": a statement of the maintenance body "
                + "failed: " + e.getMessage(), e);
    }

    private IllegalStateException autoCommitOnly() {
        return new IllegalStateException(db.name() + ": a maintenance body's connection runs in "
                + "auto-commit mode only");
    }
}

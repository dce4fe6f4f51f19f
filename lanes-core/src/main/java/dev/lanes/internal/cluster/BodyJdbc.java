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
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * The {@link Connection} a body gets on a cluster database's writer lane ({@code db.write},
 * {@code tx.run}, a read body while corked): a connection of the data source ({@link
 * LanesDataSource}), in manual-commit mode, whose transaction is the one the lane holds open on
 * the leader session, behind the same {@link dev.lanes.internal.guard.ConnectionGuard} as a local body's. So a body's
 * statements are admitted as on a local file and then by the cluster's own rules ({@link
 * ClusterBackend#writePolicy}: no rows from a write), and run on the lane's session, inside the group's
 * transaction and the body's savepoint; the lane commits, rolls back and replays as it does for a
 * local body. Transaction control is the guard's refusal, as locally.
 *
 * <p>What differs from a local body: a failed statement reaches the body as the data source's
 * {@link java.sql.SQLException} (its SQLState says what failed, a Lanes exception is its cause);
 * {@code unwrap} finds no driver connection (there is none); a query timeout does not stop a
 * statement (it runs on the leader); metadata is the schema of the body's own transaction, on a
 * {@link SchemaCopy}; a result's declared column types are the committed schema's.
 *
 * <p>Confinement: the writer connection's; used only by the thread that holds the lane's turn.
 */
final class BodyJdbc extends ClusterBackend {
    private final SchemaCopy schema;
    private final ClusterWriterConnection writer;
    private final LanesDataSource connections = new LanesDataSource(this);
    private final WriteTransaction inLane = new InLane();

    BodyJdbc(ClusterDatabase db, SchemaCopy schema, ClusterWriterConnection writer) {
        super(db);
        this.schema = schema;
        this.writer = writer;
    }

    /**
     * Runs {@code body} on a guarded connection inside the lane's open transaction ({@link
     * ClusterBackend#runGuarded}).
     */
    Object run(SqlFunction<?> body) throws Exception {
        Connection c = connections.getConnection();
        c.setAutoCommit(false); // its first statement joins the lane's transaction (begin)
        return runGuarded(c, true, body);
    }

    /** The lane's open transaction, which the connection joins at its first statement. */
    @Override
    public WriteTransaction begin(Duration startTimeout) {
        return inLane;
    }

    /** The schema of the lane's transaction, the body's own DDL included. */
    @Override
    public <T> T metaData(SqlFunction<T> body) throws Exception {
        return schema.runOn(writer.query(SchemaCopy.SCHEMA, new Object[0]), body);
    }


    // ------------------------------------------------------------------ never in a body

    @Override
    public ResultData queryData(ReadOptions options, StatementShape shape, String sql,
            Object[] args, Paging paging) {
        throw outsideTheTransaction();
    }

    @Override
    public Object write(StatementShape shape, Object[] args, Returns returns,
            Duration startTimeout) {
        throw outsideTheTransaction();
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> batch, Duration startTimeout) {
        throw outsideTheTransaction();
    }

    @Override
    public ReadTransaction snapshot(ReadOptions options) {
        throw outsideTheTransaction();
    }

    /** The guard refuses setAutoCommit and setReadOnly, so a body's connection never gets here. */
    private IllegalStateException outsideTheTransaction() {
        return new IllegalStateException(db.name() + ": a body's connection runs in the lane's "
                + "transaction only");
    }

    /**
     * The lane's transaction as the connection's: statements run on the writer; its end is the
     * lane's, whose guard refuses the body's commit, rollback and savepoints before they get here.
     */
    private final class InLane implements WriteTransaction {
        /** {@code timeout} does not apply: the statement runs on the leader, out of reach. */
        @Override
        public Object execute(StatementShape shape, Object[] args, Returns returns,
                Duration timeout) {
            try {
                return writer.execute(shape, args, returns);
            } catch (SQLException e) {
                throw failed(e);
            }
        }

        /**
         * A statement of the body failed, as a statement of a transaction fails: the body
         * decides whether its transaction goes on (the lane sees when it ended).
         */
        private LanesException failed(SQLException e) {
            return new WriteFailedException(WriteOutcome.ROLLED_BACK, db.name() + ": a statement "
                    + "of the body failed: " + e.getMessage(), e);
        }

        @Override
        public void savepoint(String sql) {
            throw ended();
        }

        @Override
        public <T> T run(SqlFunction<T> body) {
            throw ended();
        }

        @Override
        public void commit() {
            throw ended();
        }

        @Override
        public void rollback() {
            throw ended();
        }

        private IllegalStateException ended() {
            return new IllegalStateException(db.name() + ": the lane ends a body's transaction, "
                    + "never the body");
        }
    }
}

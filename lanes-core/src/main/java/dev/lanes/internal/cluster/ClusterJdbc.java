package dev.lanes.internal.cluster;

import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.TransactionOptions;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Returns;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.writer.InteractiveTransaction;
import dev.lanes.internal.writer.WriterLane;
import java.time.Duration;
import java.util.List;

/**
 * What the JDBC data source of a {@link ClusterDatabase} runs on:
 *
 * <ul>
 *   <li>auto-commit reads run as {@code db.query} runs them (a read session; while corked, the
 *       lane). The result's labels are the columns the session names ({@link
 *       dev.lanes.spi.ClusterSession#queryWithColumns}: dqlite names them for an empty result
 *       too); the declared types, which a session does not give, are asked of the {@link
 *       SchemaCopy} when first read ({@link ClusterSql.DeclaredTypes});
 *   <li>auto-commit writes and batches run on the writer lane as {@code db.execute} and {@code
 *       db.executeBatch} do, with the same outcomes; generated keys are {@code
 *       last_insert_rowid()} read on the lane's session right after the insert. A write that
 *       returns rows ({@code RETURNING}) is refused, as on the database;
 *   <li>a read-write transaction is {@code db.begin()}'s, savepoints included;
 *   <li>a read-only transaction is one snapshot on a read session ({@link
 *       ReadSessionTransaction}), beside the lane, so it holds no write back;
 *   <li>{@code DatabaseMetaData} is the driver's, on a {@link SchemaCopy} of the schema the
 *       caller sees (a cluster has no JDBC connection to ask): the committed one, or, on the
 *       thread that holds the database's read-write transaction, that transaction's own, its
 *       uncommitted DDL included. A read-only transaction's metadata is the committed schema
 *       of the call, not its snapshot's.
 * </ul>
 *
 * <p>Stateless but for final references to thread-safe objects.
 */
final class ClusterJdbc extends ClusterBackend {
    private final WriterLane lane;
    private final ReadSessions reads;
    private final SchemaCopy schema;

    ClusterJdbc(ClusterDatabase db, WriterLane lane, ReadSessions reads, SchemaCopy schema) {
        super(db);
        this.lane = lane;
        this.reads = reads;
        this.schema = schema;
    }

    @Override
    public ResultData queryData(ReadOptions options, StatementShape shape, String sql,
            Object[] args, Paging paging) {
        // the whole result, never streamed: a cluster read holds no reader to keep
        return ClusterSql.resultData(db.admittedQuery(shape, sql, args == null ? new Object[0]
                : args), schema, sql);
    }

    @Override
    public Object write(StatementShape shape, Object[] args, Returns returns,
            Duration startTimeout) {
        return db.runAndWait(lane.statement(shape, args == null ? new Object[0] : args, returns),
                startTimeout);
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> batch, Duration startTimeout) {
        return db.runAndWait(db.batch(batch), startTimeout);
    }

    @Override
    public InteractiveTransaction begin(Duration startTimeout) {
        return db.runAndWait(lane.begin(TransactionOptions.DEFAULTS), startTimeout);
    }

    @Override
    public ReadTransaction snapshot(ReadOptions options) {
        return reads.transaction(options, schema);
    }

    @Override
    public <T> T metaData(SqlFunction<T> body) throws Exception {
        return schema.run(body);
    }
}

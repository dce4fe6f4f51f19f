package dev.lanes.internal.cluster;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.jdbc.JdbcBackend;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * What the JDBC connections of a cluster database share, wherever their statements run (the
 * data source's, {@link ClusterJdbc}; a body's, {@link BodyJdbc}): the database, its statement
 * shapes and attachment limit, the cluster's rule that a write returns no rows, and metadata
 * that is never asked of a transaction's connection. Its field is
 * final; thread-safe as the database is.
 */
abstract class ClusterBackend implements JdbcBackend {
    final ClusterDatabase db;

    ClusterBackend(ClusterDatabase db) {
        this.db = db;
    }

    @Override
    public final String name() {
        return db.name();
    }

    @Override
    public final Database database() {
        return db;
    }

    @Override
    public final Shapes shapes() {
        return db.shapes();
    }

    @Override
    public final int attachLimit() {
        return db.options().maxAttachedDatabases();
    }

    /** A write on a cluster returns no rows, whether they are read or not. */
    @Override
    public final StatementPolicy writePolicy(boolean readsRows) {
        return readsRows ? StatementPolicy.CLUSTER_WRITE_BODY : StatementPolicy.CLUSTER_WRITER;
    }

    /**
     * Runs {@code body} on {@code c}, a connection of this backend's data source, behind the
     * writer's guard. A refusal of the cluster's own rules (past the guard's, which a local body
     * has too) reaches the body as the data source's {@link SQLException}; let out of the body,
     * it fails the body as the refusal it carries, as the guard's refusals do.
     *
     * @param inTransaction whether the body runs inside the lane's transaction (not maintenance)
     */
    final Object runGuarded(Connection c, boolean inTransaction, SqlFunction<?> body)
            throws Exception {
        try {
            return ConnectionGuard.write(db.name(), c, inTransaction, null, db.shapes())
                    .run(body, true);
        } catch (SQLException e) {
            if (e.getCause() instanceof InvalidRequestException) {
                InvalidRequestException refusal = (InvalidRequestException) e.getCause();
                refusal.addSuppressed(e);
                throw refusal;
            }
            throw e;
        }
    }

    /** A cluster has no JDBC connection to ask: metadata is a {@link SchemaCopy}'s, always. */
    @Override
    public final boolean metaDataInTransaction() {
        return false;
    }
}

package dev.lanes.internal.cluster;

import dev.lanes.Database;
import dev.lanes.internal.jdbc.JdbcBackend;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;

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

    /** A cluster has no JDBC connection to ask: metadata is a {@link SchemaCopy}'s, always. */
    @Override
    public final boolean metaDataInTransaction() {
        return false;
    }
}

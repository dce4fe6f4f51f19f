package dev.lanes.internal.cluster;

import dev.lanes.SqlFunction;
import java.sql.Connection;

/**
 * Work that runs on a cluster database's writer lane as a body does on a local one (inside the
 * group's transaction, in a savepoint when grouped), but on the lane's session directly, without
 * the JDBC connection a user's body gets ({@link BodyJdbc}): an atomic batch, a script, a read
 * while corked. The cluster connection recognizes it; it is never given a {@link Connection}.
 */
abstract class LaneWork<T> implements SqlFunction<T> {
    /** Runs on the lane's connection, inside its transaction. */
    abstract T run(ClusterWriterConnection c) throws Exception;

    @Override
    public final T apply(Connection connection) {
        throw new IllegalStateException("work of a cluster database runs on its lane's session, "
                + "not on a JDBC connection");
    }
}

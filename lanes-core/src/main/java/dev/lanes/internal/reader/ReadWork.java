package dev.lanes.internal.reader;

import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.util.Clock;
import java.util.List;

/**
 * What a read does on its leased connection: a body ({@link Body}), one query ({@link Query}),
 * a JDBC query read in pages ({@link PagedRead}) or a stream ({@link StreamWork}). Each is confined to the one thread that
 * runs the read.
 */
interface ReadWork<T> {
    /** Whether it needs BEGIN … COMMIT around it (several statements, one snapshot). */
    boolean transactional();

    /** Whether it checks for a stop itself (it gets a stop check, never null, if so). */
    default boolean checksStop() {
        return transactional();
    }

    T run(ReaderConnection c, ConnectionGuard.StopCheck stop) throws Exception;

    /**
     * Asked after {@link #run} succeeded: whether the work keeps the lease (and its connection,
     * with the lease's deadline still armed) past the read, to end it itself through {@link
     * Reads#end}; a {@link PagedRead} does while its statement has rows left.
     */
    default boolean keep(Lease lease, long token, ReadLimits limits) {
        return false;
    }

    /** A body on a guarded connection. */
    final class Body<T> implements ReadWork<T> {
        private final String database;
        private final SqlFunction<T> body;
        private final Shapes shapes;

        Body(String database, SqlFunction<T> body, Shapes shapes) {
            this.database = database;
            this.body = body;
            this.shapes = shapes;
        }

        @Override
        public boolean transactional() {
            return true;
        }

        @Override
        public T run(ReaderConnection c, ConnectionGuard.StopCheck stop) throws Exception {
            return ConnectionGuard.read(database, c.raw, stop, shapes).run(body, false);
        }
    }

    /**
     * One query, already classified, on the connection's statement cache; with a {@code span},
     * stamping when its statement started ({@code span[0]}) and ended ({@code span[1]}).
     */
    final class Query implements ReadWork<List<Row>> {
        private final String sql;
        private final Object[] args;
        private final long[] span;
        private final long maxResultBytes;
        private final String database;
        private final Clock clock;

        Query(String sql, Object[] args, long[] span, long maxResultBytes, String database,
                Clock clock) {
            this.sql = sql;
            this.args = args;
            this.span = span;
            this.maxResultBytes = maxResultBytes;
            this.database = database;
            this.clock = clock;
        }

        @Override
        public boolean transactional() {
            return false;
        }

        @Override
        public List<Row> run(ReaderConnection c, ConnectionGuard.StopCheck stop)
                throws Exception {
            if (span == null) {
                return Statements.query(c.cache, sql, args, maxResultBytes, database);
            }
            span[0] = clock.nanoTime();
            try {
                return Statements.query(c.cache, sql, args, maxResultBytes, database);
            } finally {
                span[1] = clock.nanoTime();
            }
        }
    }
}

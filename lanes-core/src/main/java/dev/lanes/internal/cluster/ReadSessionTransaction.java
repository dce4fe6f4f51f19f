package dev.lanes.internal.cluster;

import dev.lanes.ReadFailedException;
import dev.lanes.ReadOptions;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.ReadTransaction;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.spi.ClusterException;
import dev.lanes.spi.ClusterSession;
import java.util.List;

/**
 * A JDBC read-only transaction on a cluster database: {@code BEGIN} on one read session with the
 * leader, whose statements then all read one snapshot, beside the writer lane, so that it never
 * holds a write back. It holds its {@link ReadSessions} permit from admission and its session from
 * the first statement until {@link #close()}.
 *
 * <ul>
 *   <li>Writes are refused before anything is sent ({@code ReadOnlyViolationException}), and the
 *       transaction always ends with {@code ROLLBACK}: a commit of nothing written is the same,
 *       and whatever slipped past the refusal could not persist.
 *   <li>The first statement may run again on a new session when its session failed, as a read
 *       does: no snapshot was taken yet. After that, a failed session takes the snapshot with it:
 *       that statement and every later one fail {@code NOT_STARTED} (they read nothing), and the
 *       caller rolls back and begins again.
 *   <li>Never asked for a body on a JDBC connection ({@link #run}): the metadata of a cluster
 *       database's data source is its {@link SchemaCopy}'s.
 * </ul>
 *
 * <h2>Concurrency</h2>
 * One user at a time, as a JDBC connection is; the fields are touched only by the thread of the
 * current call, ordered by the user's hand-off between calls. No SQLite runs here (a session is a
 * network client), so a virtual thread calls it directly.
 */
final class ReadSessionTransaction implements ReadTransaction {
    private final ReadSessions sessions;
    private final String name;
    private final long maxResultBytes;
    /** Tells the declared types of its queries' columns. */
    private final SchemaCopy schema;
    /** The session holding the snapshot; null before the first statement and after a loss. */
    private ClusterSession session;
    /** Why the snapshot is gone: its session failed after it began. */
    private ClusterException lost;
    private boolean closed;

    ReadSessionTransaction(ReadSessions sessions, String name, long maxResultBytes,
            SchemaCopy schema) {
        this.sessions = sessions;
        this.schema = schema;
        this.name = name;
        this.maxResultBytes = maxResultBytes;
    }

    /** One query of the session's snapshot; the session runs it without a deadline. */
    @Override
    public ResultData query(String sql, Object[] args, ReadOptions options) {
        List<Object> params = ClusterSql.params(args);
        ClusterSession.Result result = inSnapshot(sql, s -> s.queryWithColumns(sql, params));
        ClusterSql.checkSize(name, sql, result.rows(), maxResultBytes);
        return ClusterSql.resultData(result, schema, sql);
    }

    @Override
    public <T> T run(SqlFunction<T> body) {
        throw new IllegalStateException(name + ": a read session runs no body");
    }

    @Override
    public void savepoint(String sql) {
        inSnapshot(sql, s -> s.execute(sql, List.of()));
    }

    /** Rolls back on the session and gives it back, else discards it; then the permit. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ClusterSession s = session;
        session = null;
        try {
            if (s != null) {
                try {
                    s.execute("ROLLBACK", List.of());
                    sessions.giveBack(s);
                } catch (ClusterException e) {
                    // the server rolls back what a closed session had open
                    sessions.discard(s);
                }
            }
        } finally {
            sessions.left();
        }
    }

    /** A request on the snapshot's session, beginning it at the first one. */
    private <T> T inSnapshot(String sql, Request<T> request) {
        if (closed) {
            throw new IllegalStateException(name + ": the read-only transaction is closed");
        }
        if (lost != null) {
            throw snapshotLost(sql, lost);
        }
        if (session != null) {
            try {
                return request.send(session);
            } catch (ClusterException e) {
                if (ReadSessions.survives(session, e)) {
                    throw sessions.failed(sql, e, null);
                }
                sessions.discard(session);
                session = null;
                lost = e;
                throw snapshotLost(sql, e);
            }
        }
        return begin(sql, request);
    }

    /** {@code BEGIN} and the first request, once more on a new session if the session failed. */
    private <T> T begin(String sql, Request<T> request) {
        ClusterException first = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            ClusterSession s;
            try {
                s = sessions.take();
            } catch (ClusterException e) {
                throw sessions.failed(sql, e, first);
            }
            try {
                s.execute("BEGIN", List.of());
            } catch (ClusterException e) {
                if (ReadSessions.survives(s, e)) {
                    sessions.giveBack(s);
                    throw sessions.failed("BEGIN", e, first);
                }
                sessions.discard(s);
                if (first != null) {
                    throw sessions.failed("BEGIN", e, first);
                }
                first = e;
                continue;
            }
            session = s;
            try {
                return request.send(s);
            } catch (ClusterException e) {
                if (ReadSessions.survives(s, e)) {
                    throw sessions.failed(sql, e, first); // the snapshot stands, as in SQLite
                }
                // nothing was read in a snapshot yet: the next statement may begin afresh
                sessions.discard(s);
                session = null;
                if (first != null) {
                    throw sessions.failed(sql, e, first);
                }
                first = e;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private ReadFailedException snapshotLost(String sql, ClusterException cause) {
        return new ReadFailedException(WriteOutcome.NOT_STARTED, name + ": the read-only "
                + "transaction's session failed (" + cause.getMessage() + "), and its snapshot "
                + "with it; '" + StatementShape.shorten(sql)
                + "' read nothing. Roll back and begin "
                + "again", cause);
    }

    /** One request to a session. */
    @FunctionalInterface
    private interface Request<T> {
        T send(ClusterSession session);
    }
}

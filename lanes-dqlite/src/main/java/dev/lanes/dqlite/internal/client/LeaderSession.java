package dev.lanes.dqlite.internal.client;

import dev.lanes.dqlite.DqliteInvalidRequestException;
import dev.lanes.dqlite.DqliteLeadershipLostException;
import dev.lanes.dqlite.DqliteNotLeaderException;
import dev.lanes.dqlite.DqliteResult;
import dev.lanes.dqlite.DqliteRows;
import dev.lanes.dqlite.DqliteSession;
import dev.lanes.dqlite.DqliteStatement;
import dev.lanes.dqlite.internal.wire.Responses;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A {@link DqliteSession} on one leader connection with one database open.
 *
 * <p>Concurrency: the connection serialises requests under its own lock; the session adds no
 * state but the immutable ids, so it is as thread-safe as the connection. When the node stops
 * leading (10250 or 10506) the session closes its connection, so that no later request is sent to
 * a node that would refuse it or, worse, to a stale transaction there.
 */
public final class LeaderSession implements DqliteSession {
    private final Connection connection;
    private final int db;
    private final String database;
    private final long nodeId;

    public LeaderSession(Connection connection, int db, String database, long nodeId) {
        this.connection = connection;
        this.db = db;
        this.database = database;
        this.nodeId = nodeId;
    }

    @Override
    public String database() {
        return database;
    }

    @Override
    public String node() {
        return connection.address();
    }

    @Override
    public long nodeId() {
        return nodeId;
    }

    @Override
    public DqliteResult exec(String sql, Object... params) {
        Objects.requireNonNull(sql, "sql");
        return onLeader(() -> connection.execSql(db, sql, params));
    }

    @Override
    public DqliteRows query(String sql, Object... params) {
        Objects.requireNonNull(sql, "sql");
        return onLeader(() -> connection.querySql(db, sql, params));
    }

    @Override
    public DqliteStatement prepare(String sql) {
        Objects.requireNonNull(sql, "sql");
        Responses.StmtInfo info = onLeader(() -> connection.prepare(db, sql));
        if (info.params() > dev.lanes.dqlite.internal.wire.Protocol.MAX_PARAMS) {
            Statement statement = new Statement(this, info.id(), sql, (int) info.params());
            statement.close();
            throw new DqliteInvalidRequestException("the statement takes " + info.params()
                    + " parameters; dqlite binds at most 255 per statement: " + sql);
        }
        return new Statement(this, info.id(), sql, (int) info.params());
    }

    @Override
    public DqliteResult exec(DqliteStatement statement, Object... params) {
        Statement mine = own(statement, params);
        return onLeader(() -> connection.exec(db, mine.id, params));
    }

    @Override
    public DqliteRows query(DqliteStatement statement, Object... params) {
        Statement mine = own(statement, params);
        return onLeader(() -> connection.query(db, mine.id, params));
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public void close() {
        connection.close();
    }

    private Statement own(DqliteStatement statement, Object[] params) {
        if (!(statement instanceof Statement mine) || mine.session != this) {
            throw new DqliteInvalidRequestException(
                    "the statement was prepared on another session; prepare it on this one");
        }
        if (mine.closed.get()) {
            throw new DqliteInvalidRequestException("the statement is closed: " + mine.sql);
        }
        int given = params == null ? 0 : params.length;
        if (given != mine.parameterCount) {
            throw new DqliteInvalidRequestException("the statement takes " + mine.parameterCount
                    + " parameters, " + given + " given: " + mine.sql);
        }
        return mine;
    }

    private <T> T onLeader(Supplier<T> request) {
        try {
            return request.get();
        } catch (DqliteNotLeaderException | DqliteLeadershipLostException e) {
            connection.close("the node " + connection.address() + " stopped leading");
            throw e;
        }
    }

    /** A prepared statement of this session. */
    private static final class Statement implements DqliteStatement {
        private final LeaderSession session;
        private final int id;
        private final String sql;
        private final int parameterCount;
        private final AtomicBoolean closed = new AtomicBoolean();

        Statement(LeaderSession session, int id, String sql, int parameterCount) {
            this.session = session;
            this.id = id;
            this.sql = sql;
            this.parameterCount = parameterCount;
        }

        @Override
        public String sql() {
            return sql;
        }

        @Override
        public int parameterCount() {
            return parameterCount;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true) && session.connection.isOpen()) {
                session.onLeader(() -> {
                    session.connection.finalizeStatement(session.db, id);
                    return null;
                });
            }
        }

        @Override
        public String toString() {
            return "DqliteStatement[" + sql + "]";
        }
    }
}

package dev.lanes.internal.cluster;

import dev.lanes.Row;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterException;
import dev.lanes.spi.ClusterSession;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * A {@link ClusterEngine} for the tests of the cluster database without a cluster: every session
 * is its own sqlite-jdbc connection to one local file (busy timeout 0, so a second writer is
 * refused busy at once, as on dqlite), whose failures are classified as the SPI says. The test
 * plants what a lost leader does to a {@code COMMIT} ({@link CommitFault}), makes the leader
 * unreachable, or drops the next statement's session, and counts what was sent.
 *
 * <p>Thread-safe: the faults and counters are atomic; each session is used by one thread at a
 * time (the lane's holder, a reader).
 */
public final class SqliteClusterEngine implements ClusterEngine {
    /** What the next {@code COMMIT} meets. */
    enum CommitFault {
        /** The commit applies, then the connection drops before the answer: may have run. */
        APPLIED_THEN_DROPPED,
        /** The connection drops before the commit reaches the node: may have run, did not. */
        DROPPED_BEFORE,
        /** The node refuses the commit, no longer leading: certainly not run. */
        NOT_LEADER
    }

    private final Path file;
    private final AtomicReference<CommitFault> nextCommit = new AtomicReference<>();
    private final AtomicReference<String> dropNextMatching = new AtomicReference<>();
    private final AtomicReference<String> refuseNextMatching = new AtomicReference<>();
    /** While positive, opens fail as if no leader were elected; counted down per open. */
    private final AtomicInteger unreachableOpens = new AtomicInteger();
    private volatile boolean unreachable;
    final AtomicInteger opens = new AtomicInteger();
    final AtomicInteger busyRefusals = new AtomicInteger();
    final CountDownLatch firstBusy = new CountDownLatch(1);
    /** How many times each SQL text was sent, to prove that nothing is sent twice. */
    final Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();

    public SqliteClusterEngine(Path file) {
        this.file = file;
    }

    void failNextCommit(CommitFault fault) {
        nextCommit.set(fault);
    }

    /** The session of the next statement whose SQL contains {@code fragment} drops before it runs. */
    void dropNextStatement(String fragment) {
        dropNextMatching.set(fragment);
    }

    /**
     * The next statement whose SQL contains {@code fragment} is refused before it runs, the
     * session staying open, as a server refuses a statement it cannot run.
     */
    void refuseNextStatement(String fragment) {
        refuseNextMatching.set(fragment);
    }

    /** No leader is found until {@link #reachable()}. */
    void unreachable() {
        unreachable = true;
    }

    void reachable() {
        unreachable = false;
    }

    /** The next {@code n} opens find no leader. */
    void unreachableFor(int n) {
        unreachableOpens.set(n);
    }

    int sentCount(String sql) {
        AtomicInteger n = sent.get(sql);
        return n == null ? 0 : n.get();
    }

    @Override
    public ClusterSession open(String database, Duration timeout) {
        if (unreachable || unreachableOpens.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new ClusterException(ClusterException.Kind.NOT_RUN, 0, "no leader found within "
                    + timeout.toMillis() + " ms", null);
        }
        try {
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.resolve(database));
            try (var s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 0");
                s.execute("PRAGMA journal_mode = WAL");
            }
            opens.incrementAndGet();
            return new Session(c);
        } catch (SQLException e) {
            throw new ClusterException(ClusterException.Kind.NOT_RUN, 0, e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "sqlite-cluster[" + file + "]";
    }

    private final class Session implements ClusterSession {
        private final Connection c;
        private volatile boolean open = true;

        Session(Connection c) {
            this.c = c;
        }

        @Override
        public long execute(String sql, List<Object> params) {
            before(sql);
            if (sql.equals("COMMIT")) {
                CommitFault fault = nextCommit.getAndSet(null);
                if (fault != null) {
                    return failCommit(fault);
                }
            }
            try (PreparedStatement s = c.prepareStatement(sql)) {
                bind(s, params);
                s.execute();
                return s.getUpdateCount() < 0 ? 0 : s.getUpdateCount();
            } catch (SQLException e) {
                throw classified(e);
            }
        }

        private long failCommit(CommitFault fault) {
            if (fault == CommitFault.APPLIED_THEN_DROPPED) {
                try (var s = c.createStatement()) {
                    s.execute("COMMIT");
                } catch (SQLException e) {
                    throw new AssertionError("the planted commit failed for real", e);
                }
            }
            drop();
            if (fault == CommitFault.NOT_LEADER) {
                throw new ClusterException(ClusterException.Kind.NOT_RUN, 10250, "not leader",
                        null);
            }
            throw new ClusterException(ClusterException.Kind.MAY_HAVE_RUN, 0, "the connection "
                    + "dropped; the COMMIT may have run", null);
        }

        @Override
        public List<Row> query(String sql, List<Object> params) {
            return queryWithColumns(sql, params).rows();
        }

        /** The names as dqlite gives them: from the statement, also for an empty result. */
        @Override
        public Result queryWithColumns(String sql, List<Object> params) {
            before(sql);
            try (PreparedStatement s = c.prepareStatement(sql)) {
                bind(s, params);
                try (ResultSet rs = s.executeQuery()) {
                    ResultSetMetaData meta = rs.getMetaData();
                    List<String> columns = new ArrayList<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        columns.add(meta.getColumnLabel(i));
                    }
                    List<Row> rows = new ArrayList<>();
                    while (rs.next()) {
                        Object[] values = new Object[columns.size()];
                        for (int i = 0; i < values.length; i++) {
                            Object v = rs.getObject(i + 1);
                            values[i] = v instanceof Integer ? Long.valueOf((Integer) v) : v;
                        }
                        rows.add(Row.of(columns, values));
                    }
                    return new Result(columns, rows);
                }
            } catch (SQLException e) {
                throw classified(e);
            }
        }

        private void before(String sql) {
            if (!open) {
                throw new ClusterException(ClusterException.Kind.NOT_RUN, 0, "the session is "
                        + "closed; not sent", null);
            }
            sent.computeIfAbsent(sql, k -> new AtomicInteger()).incrementAndGet();
            String fragment = dropNextMatching.get();
            if (fragment != null && sql.contains(fragment)
                    && dropNextMatching.compareAndSet(fragment, null)) {
                drop();
                throw new ClusterException(ClusterException.Kind.MAY_HAVE_RUN, 0, "the "
                        + "connection dropped", null);
            }
            String refused = refuseNextMatching.get();
            if (refused != null && sql.contains(refused)
                    && refuseNextMatching.compareAndSet(refused, null)) {
                throw new ClusterException(ClusterException.Kind.NOT_RUN, 1, "refused as "
                        + "planted", null);
            }
        }

        private ClusterException classified(SQLException e) {
            SQLiteErrorCode code = e instanceof SQLiteException
                    ? ((SQLiteException) e).getResultCode() : SQLiteErrorCode.SQLITE_ERROR;
            int primary = code.code & 0xff;
            ClusterException.Kind kind = primary == 5 ? ClusterException.Kind.BUSY
                    : primary == 19 ? ClusterException.Kind.CONSTRAINT
                    : ClusterException.Kind.NOT_RUN;
            if (kind == ClusterException.Kind.BUSY) {
                busyRefusals.incrementAndGet();
                firstBusy.countDown();
            }
            return new ClusterException(kind, code.code, e.getMessage(), e);
        }

        /** The connection is gone; SQLite rolls back what it held. */
        private void drop() {
            open = false;
            try {
                c.close();
            } catch (SQLException e) {
                // gone either way
            }
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public String node() {
            return "local";
        }

        @Override
        public void close() {
            drop();
        }
    }

    private static void bind(PreparedStatement s, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            s.setObject(i + 1, params.get(i));
        }
    }
}

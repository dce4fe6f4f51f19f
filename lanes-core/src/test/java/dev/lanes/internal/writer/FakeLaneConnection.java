package dev.lanes.internal.writer;

import dev.lanes.internal.writer.WriteRequest.BodyWrite;
import dev.lanes.internal.writer.WriteRequest.GroupWrite;
import dev.lanes.internal.writer.WriteRequest.StatementWrite;
import dev.lanes.spi.CommitFence;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link LaneConnection} without SQLite, for the rules of {@link GroupCommit}: a small model of
 * one SQLite connection (durable rows, the open transaction's rows, its savepoints, and every
 * end of a transaction, commit or rollback, in order) that a test can make fail at any step.
 *
 * <p>Each method of the interface is one line: it records the step in {@link #calls}, fails if
 * the test asked it to ({@link #failOn}), and moves the model. A method added to {@link
 * LaneConnection} is one more such line.
 *
 * <p>Bodies see the model, not a JDBC connection: a test's body calls {@link #insert}, {@link
 * #endTransaction} or {@link #commitInside} the way a real body would run SQL. A statement's SQL
 * is {@code "insert <row>"} or {@code "fail"}. Used by one thread, the test's.
 */
final class FakeLaneConnection implements LaneConnection {
    /** Rows that persisted. */
    final List<String> durable = new ArrayList<>();
    /** Every step asked of the connection, in order ("BEGIN", "SAVEPOINT", "RUN 'a'", ...). */
    final List<String> calls = new ArrayList<>();
    /** Whether {@link #rollbackVerified()} can verify; false models a connection in doubt. */
    boolean rollbackVerifies = true;
    /** Whether a failed {@code COMMIT} is certainly rolled back. */
    boolean failedCommitRollsBack = true;

    /** The open transaction's rows; null outside a transaction. */
    private List<String> open;
    private final Deque<Integer> savepoints = new ArrayDeque<>();
    /** Each end of a transaction, in order: true for a commit. */
    private final List<Boolean> ends = new ArrayList<>();
    private final Map<String, Deque<Exception>> failures = new HashMap<>();
    private final Map<String, Integer> seen = new HashMap<>();
    private final Map<String, Integer> failAt = new HashMap<>();

    // ------------------------------------------------------------------ LaneConnection

    @Override
    public void beginImmediate() throws SQLException, BusyTimeout {
        begin(stepOrBusy("BEGIN"));
    }

    @Override
    public void commit() throws SQLException {
        commitOpen(step("COMMIT"));
    }

    @Override
    public boolean rolledBackAfterFailedCommit(SQLException failure) {
        return afterFailedCommit(quiet("ROLLBACK after COMMIT failed"));
    }

    @Override
    public boolean rollbackVerified() {
        return verifiedRollback(quiet("ROLLBACK"));
    }

    @Override
    public void savepoint() throws SQLException {
        savepoints.push(rowsOpen(step("SAVEPOINT")));
    }

    @Override
    public void releaseSavepoint() throws SQLException {
        release(step("RELEASE"));
    }

    @Override
    public void rollBackToSavepoint() throws SQLException {
        truncateOpen(savepoints.pop(), step("ROLLBACK TO"));
    }

    @Override
    public Watch watch() {
        return watchFrom(ends.size());
    }

    @Override
    public Object run(GroupWrite request) throws Exception {
        return execute(request, step("RUN " + request.describe()));
    }

    @Override
    public void beforeCommit(CommitFence fence) throws Exception {
        fence.beforeCommit(null);
    }

    @Override
    public long changesSinceBegin() throws SQLException {
        return rowsOpen(step("changes"));
    }

    @Override
    public Set<String> takeChangedTables() {
        return Set.of("t");
    }

    @Override
    public void trackTables(boolean track) {
        quiet("track " + track);
    }

    // ------------------------------------------------------------------ what the test asks

    /** The {@code nth} call of {@code step} from now (1 for the next) throws {@code failure}. */
    void failOn(String step, int nth, Exception failure) {
        failAt.put(step, seen.getOrDefault(step, 0) + nth);
        failures.computeIfAbsent(step, s -> new ArrayDeque<>()).add(failure);
    }

    /** Whether a transaction is open now. */
    boolean inTransaction() {
        return open != null;
    }

    /** A body's INSERT: into the open transaction, or autocommitted (durable at once) outside. */
    void insert(String row) {
        if (open != null) {
            open.add(row);
        } else {
            durable.add(row);
            ends.add(true);
        }
    }

    /**
     * What {@code OR ROLLBACK} or {@code RAISE(ROLLBACK)} does: the whole transaction rolls back
     * under the lane, and the statement fails.
     */
    void endTransaction() throws SQLException {
        rollBackOpen();
        throw new SQLException("constraint failed (OR ROLLBACK): the transaction was rolled back");
    }

    /** {@link #endTransaction} whose failure the body swallowed: it goes on after the end. */
    void rollBackInside() {
        rollBackOpen();
    }

    /** A body that commits the lane's transaction behind its back. */
    void commitInside() {
        commitOpen(null);
    }

    // ------------------------------------------------------------------ the model

    /**
     * Records a step that may fail with an {@link SQLException}; returns null, so that a method
     * of the interface can pass it as an argument and stay one line.
     */
    private Void step(String name) throws SQLException {
        Exception e = scripted(name);
        if (e != null) {
            throw (SQLException) e;
        }
        return null;
    }

    /** {@link #step} for {@code BEGIN}, which may also stay busy ({@link BusyTimeout}). */
    private Void stepOrBusy(String name) throws SQLException, BusyTimeout {
        Exception e = scripted(name);
        if (e instanceof BusyTimeout) {
            throw (BusyTimeout) e;
        }
        if (e != null) {
            throw (SQLException) e;
        }
        return null;
    }

    /** Records a step; the failure scripted for this call of it, or null. */
    private Exception scripted(String name) {
        calls.add(name);
        int n = seen.merge(name, 1, Integer::sum);
        Integer at = failAt.get(name);
        if (at != null && at == n) {
            failAt.remove(name);
            return failures.get(name).poll();
        }
        return null;
    }

    /** Records a step that cannot throw. */
    private Void quiet(String name) {
        calls.add(name);
        return null;
    }

    private void begin(Void ignored) throws SQLException {
        if (open != null) {
            throw new SQLException("cannot start a transaction within a transaction");
        }
        open = new ArrayList<>();
        savepoints.clear();
    }

    private void commitOpen(Void ignored) {
        if (open == null) {
            throw new IllegalStateException("COMMIT outside a transaction");
        }
        durable.addAll(open);
        open = null;
        ends.add(true);
    }

    private void rollBackOpen() {
        if (open != null) {
            open = null;
            ends.add(false);
        }
    }

    private boolean afterFailedCommit(Void ignored) {
        if (failedCommitRollsBack) {
            rollBackOpen();
        }
        return failedCommitRollsBack;
    }

    private boolean verifiedRollback(Void ignored) {
        if (!rollbackVerifies) {
            return false;
        }
        rollBackOpen();
        return true;
    }

    private void release(Void ignored) {
        savepoints.pop();
    }

    private int rowsOpen(Void ignored) {
        return open == null ? 0 : open.size();
    }

    private void truncateOpen(int size, Void ignored) {
        open.subList(size, open.size()).clear();
    }

    private Object execute(GroupWrite request, Void ignored) throws Exception {
        if (request instanceof BodyWrite) {
            return ((BodyWrite) request).body.apply(null);
        }
        String sql = ((StatementWrite) request).sql();
        if (sql.startsWith("insert ")) {
            insert(sql.substring("insert ".length()));
            return 1;
        }
        throw new SQLException("statement failed: " + sql);
    }

    private Watch watchFrom(int start) {
        return new Watch() {
            @Override
            public boolean ended() {
                return ends.size() > start;
            }

            @Override
            public boolean committed() {
                return ends.subList(start, ends.size()).contains(true);
            }

            @Override
            public boolean firstEndWasCommit() {
                return ends.size() > start && ends.get(start);
            }
        };
    }
}

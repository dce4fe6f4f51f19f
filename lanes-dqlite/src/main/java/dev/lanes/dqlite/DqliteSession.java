package dev.lanes.dqlite;

/**
 * A connection to the leader of a dqlite cluster with one database open, from {@link
 * DqliteCluster#connect(String)}.
 *
 * <p>Requests run one at a time, in the order callers make them (a second thread waits for the
 * first's request to end); a result set is always read to its end before the next request. A
 * transaction is interactive: {@code exec("BEGIN")}, statements, {@code exec("COMMIT")}, all on
 * one session; only the COMMIT is replicated, and only a COMMIT can leave its outcome unknown.
 *
 * <p>Failures are {@link DqliteException}s whose {@link DqliteException#mayHaveRun()} says whether
 * the request may have taken effect. The session never retries and never moves to another node:
 * once its node stops leading (10250, 10506) or its connection fails, it is closed for good and
 * {@link #isOpen()} is false; ask the cluster for a new session. A FAILURE of a statement leaves
 * it open.
 */
public interface DqliteSession extends AutoCloseable {
    /** The database this session opened. */
    String database();

    /** The {@code host:port} of the leader this session is connected to. */
    String node();

    /** The Raft id of that leader. */
    long nodeId();

    /**
     * Runs SQL (EXEC_SQL). The parameters bind to the first statement; further statements run
     * without parameters, one after the other, and stop at the first failure.
     *
     * @param params values for the {@code ?} placeholders (see {@link DqliteRows} for the types;
     *     also {@link java.time.LocalDateTime}, {@link java.time.LocalDate}, {@link
     *     java.time.ZonedDateTime} and {@link UnixTime})
     */
    DqliteResult exec(String sql, Object... params);

    /** Runs the first statement of {@code sql} (QUERY_SQL) and returns all its rows. */
    DqliteRows query(String sql, Object... params);

    /**
     * Prepares the first statement of {@code sql} (PREPARE) on the leader, for repeated use on
     * this session. The rest of the text, if any, is ignored, as SQLite's prepare does.
     */
    DqliteStatement prepare(String sql);

    /**
     * Runs a prepared statement (EXEC).
     *
     * @param params exactly {@link DqliteStatement#parameterCount()} values: the server keeps a
     *     statement's previous bindings for parameters left out, so the client refuses fewer
     */
    DqliteResult exec(DqliteStatement statement, Object... params);

    /** Runs a prepared statement (QUERY) and returns all its rows. */
    DqliteRows query(DqliteStatement statement, Object... params);

    /** Whether the session can still take requests. */
    boolean isOpen();

    /** Closes the connection; statements prepared on it are released by the server. Idempotent. */
    @Override
    void close();
}

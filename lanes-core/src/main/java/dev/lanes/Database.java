package dev.lanes;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One SQLite database run by a {@link Lanes} runtime. Thread-safe: call it from any thread,
 * platform or virtual.
 *
 * <p><b>Writes.</b> Every write goes through the database's single writer lane: a bounded queue
 * drained by one connection, so writers never fight over SQLite's lock. Adjacent queued writes
 * share one {@code BEGIN IMMEDIATE … COMMIT} (group commit), each isolated as if in its own
 * savepoint: a failing write rolls back alone, and its neighbours commit. A write returns only
 * after its {@code COMMIT} returned, so an acknowledged write is as durable as the configured
 * {@link Synchronous} level. A failed write throws a {@link LanesException} whose {@link
 * LanesException#outcome() outcome} says whether it rolled back, never started, or is unknown.
 *
 * <p><b>Bodies.</b> A {@link SqlFunction} receives a guarded {@link java.sql.Connection} that is
 * already inside the transaction. Transaction control ({@code commit}, {@code rollback}, {@code
 * setAutoCommit}, {@code close}, and SQL beginning with {@code BEGIN}, {@code COMMIT}, {@code
 * END}, {@code ROLLBACK}, {@code SAVEPOINT} or {@code RELEASE}) is refused with {@link
 * InvalidRequestException} before SQLite runs it. A body may run more than once when a
 * neighbour ends the shared transaction; see {@link WriteOptions#replayable()}.
 */
public interface Database extends Reading, AutoCloseable {

    /** The canonical path of the database file. */
    Path path();

    /** Runs a write body and returns its result once it committed. */
    <T> T write(SqlFunction<T> body);

    /** Runs a write body with per-write options and returns its result once it committed. */
    <T> T write(WriteOptions options, SqlFunction<T> body);

    /**
     * Queues a write body and returns at once. The future completes after the commit, or
     * exceptionally with a {@link LanesException}. Admission failures ({@link
     * OverloadedException}, {@link ClosedException}…) are thrown here, not put in the future.
     *
     * <p>Called inside a write body of this same database, the write runs only after that body's
     * turn ends, so the body must not wait for it, and never waits forever: a wait through the
     * returned future ({@code join}, {@code get}, a stage derived from it) is refused at once
     * with {@link InvalidRequestException} ({@code NOT_STARTED}), the write withdrawn unrun; a
     * wait through anything else ({@code CompletableFuture.allOf}, {@code anyOf}, a latch a
     * callback counts down) ends once the body's thread stayed parked on a {@code
     * java.util.concurrent} wait (not a sleep) for about half a second while the write is still
     * queued: it is then withdrawn unrun, and the
     * future fails with that same refusal. Not waited for, it commits after the body.
     */
    <T> CompletableFuture<T> writeAsync(SqlFunction<T> body);

    /** {@link #writeAsync(SqlFunction)} with per-write options. */
    <T> CompletableFuture<T> writeAsync(WriteOptions options, SqlFunction<T> body);

    /**
     * Runs one statement with positional parameters as a write and returns its update count. The
     * statement is prepared once per connection and cached. A single statement needs no
     * savepoint: SQLite rolls a failed statement back alone.
     */
    int execute(String sql, Object... args);

    /**
     * Runs statements in order as one write request (one turn, one savepoint), stopping at the
     * first failure. The batch is atomic: it either commits whole or, on failure, rolls back
     * whole with {@link BatchFailedException} naming the statement. Transaction control anywhere
     * in it is refused before anything runs.
     *
     * @return each statement's update count, in order
     */
    int[] executeBatch(List<Statement> statements);

    /**
     * Runs a multi-statement SQL text (a schema file, say) statement by statement on the writer,
     * as one atomic write request. Comments, string literals and quoted identifiers may hold
     * semicolons; {@code CREATE TRIGGER … BEGIN … END} is one statement. Transaction control in
     * it is refused before anything runs.
     *
     * @return the number of statements run
     * @throws BatchFailedException when a statement failed; nothing of the script persisted
     */
    int executeScript(String sql);

    /**
     * This database's reads with per-read options, such as a timeout: {@code
     * db.reading(ReadOptions.timeout(Duration.ofMillis(250))).query(sql, args)}. The reads run
     * exactly as this database's own forms do, with the options applied; see {@link Reading}.
     */
    Reading reading(ReadOptions options);

    /**
     * Subscribes to the database's commits. After each commit that changed rows, every active
     * subscriber is told, on a dispatcher thread of the runtime (never the writer's), with a
     * {@link Change} carrying the new {@link #changeVersion()} and the tables changed. A rolled
     * back write or one that changed no rows notifies nobody. Notifications are hints: re-read
     * what you care about. A listener that throws is logged and affects neither the other
     * listeners nor the database; a listener that blocks delays the notifications of every
     * database of the runtime. Only commits after this call are delivered.
     *
     * @return the subscription; close it to stop the deliveries
     */
    Subscription onChange(java.util.function.Consumer<Change> listener);

    /**
     * The database's change version: 0 at open, then one more per committed transaction (commit
     * group) that changed rows. Cheap; never touches SQLite.
     */
    long changeVersion();

    /**
     * Runs a body on the writer lane without the transaction wrap, for statements SQLite refuses
     * inside a transaction ({@code VACUUM}, {@code PRAGMA wal_checkpoint}, {@code journal_mode}).
     * The single-writer guarantee still holds. A body that leaves a transaction open poisons the
     * writer.
     *
     * <p>On a cluster database ({@code Lanes.openCluster}) the body's statements run on the
     * lane's session with the leader, each committed and replicated on its own ({@code ANALYZE},
     * {@code CREATE INDEX}, {@code VACUUM}); what the leader refuses fails as its statement, and
     * {@code PRAGMA wal_checkpoint} is refused ({@link InvalidRequestException}): the nodes
     * checkpoint their own copies.
     */
    <T> T maintenance(SqlFunction<T> body);

    /**
     * Runs a {@code PASSIVE} checkpoint now, through the writer lane's top-level path (so it
     * never overlaps a write of this runtime), and returns SQLite's report. A passive checkpoint
     * waits for no one: frames a reader still needs stay in the WAL, and the result says {@link
     * CheckpointResult#busy() busy}. Checkpoints are exempt from the disk reserve. The result also
     * shows in {@link DatabaseDiagnostics#checkpoints()}.
     *
     * <p>On a cluster database no checkpoint runs (each node checkpoints its own copy) and the
     * result says so: not busy, {@code walFrames} and {@code checkpointedFrames} both {@code -1},
     * as for a database without a WAL of its own.
     *
     * @throws InvalidRequestException when {@link DatabaseOptions#checkpointMode()} is {@link
     *     CheckpointMode#EXTERNAL}: another tool owns checkpoints, and Lanes never runs one
     */
    CheckpointResult checkpoint();

    /**
     * Writes an online, consistent copy of the database to {@code target}: one committed state,
     * compacted, in rollback-journal mode, checked with {@code PRAGMA integrity_check} before it
     * gets its name. It runs on a connection of its own, never the writer's, so writes go on
     * while it runs; it reads one snapshot, so writes committed meanwhile are not in it. Returns
     * once the copy is complete and synced. Called from a virtual thread, the copy runs on the
     * runtime's pool while the caller waits. A close waits for backups in flight.
     *
     * <p>On a cluster database the copy is an ordinary SQLite file written from one read
     * snapshot of the leader, on a read session: the schema, every row with its rowid, exact
     * values, {@code user_version} and {@code application_id}.
     *
     * @throws InvalidRequestException when {@code target} exists (a backup never overwrites a
     *     file) or is the database itself
     * @throws ReadFailedException when the copy failed; nothing is left at {@code target}
     */
    void backup(java.nio.file.Path target);

    /**
     * Begins an interactive transaction: queues like a write and returns once the lane ran
     * {@code BEGIN IMMEDIATE} for it. See {@link Transaction}.
     *
     * @throws BusyException when another process held the write lock for the whole busy timeout
     */
    Transaction begin();

    /** {@link #begin()} with per-transaction options. */
    Transaction begin(TransactionOptions options);

    /**
     * Corks the database: every later write applies inside one outer transaction (each write or
     * group as a savepoint) and its future completes once applied, but none of them is durable
     * until {@link #uncork()} commits them as one. Reads while corked run on the writer lane and
     * see the corked writes. Maintenance requests are refused while corked. A crash while corked
     * loses exactly the corked writes.
     *
     * @throws InvalidRequestException when already corked
     */
    void cork();

    /**
     * Commits everything held since {@link #cork()} as one transaction and returns once it is
     * durable. Requested while an interactive transaction is open, it is deferred: it runs when
     * that transaction ends, and this call returns at once. {@link #close()} while corked commits
     * the held work; {@link #shutdownNow()} rolls it back (and logs how much).
     *
     * @throws InvalidRequestException when not corked, or when an uncork is already pending
     * @throws WriteFailedException when the commit failed: the corked writes did not persist
     */
    void uncork();

    /**
     * A JDBC {@link javax.sql.DataSource} that runs on this database's lanes, so that code written
     * for a {@code DataSource} (Spring's {@code JdbcTemplate} and transaction manager,
     * Hibernate, Flyway, jOOQ, MyBatis) gets Lanes without a rewrite. One per database,
     * thread-safe and cheap to call; its connections hold no SQLite connection until they run
     * something, so there is nothing to pool.
     *
     * <p><b>Auto-commit</b> (the default): each statement is one request. A statement classified
     * read-only runs on a reader, as {@link #query} does; anything else is one write on the writer
     * lane, grouped with its neighbours ({@code INSERT … RETURNING} through {@code executeQuery}
     * included); a batch is one atomic request; generated keys work. A read whose result does
     * not fit in one page (the statement's fetch size in rows when set, and at most about 4 MiB
     * of values or {@link DatabaseOptions#maxResultBytes()}, the smaller) streams: its {@code
     * ResultSet} keeps the reader, and the one statement's snapshot, and fetches the next page
     * when {@code next()} reaches the end of the current one, until it is exhausted, closed, or
     * its statement runs again or closes, or its connection closes; the query timeout bounds the
     * whole stream. A smaller result is read whole, and its reader is back before {@code
     * executeQuery} returns. Inside a transaction results are read whole.
     *
     * <p><b>{@code setAutoCommit(false)}</b> begins a transaction at the first statement: a
     * read-write one pins the writer lane as {@link #begin()} does ({@code BEGIN IMMEDIATE}), so
     * its reads see the latest committed state and its writes never meet {@code SQLITE_BUSY}; a
     * read-only one ({@code setReadOnly(true)} first, as Spring's {@code readOnly} transactions
     * do) is one snapshot on a reader, where writes fail. {@code commit}, {@code rollback} and
     * savepoints work; {@code close} without a commit rolls back; {@link
     * DatabaseOptions#transactionIdleTimeout()} applies. A thread that holds a pinned transaction
     * cannot write to the same database outside it (through another connection, {@link #execute}
     * or a nested {@code REQUIRES_NEW}): that fails at once with {@link InvalidRequestException}
     * instead of waiting for itself.
     *
     * <p><b>Errors</b> are standard SQL exceptions with the {@link LanesException} as the cause:
     * a retryable refusal is a {@code SQLTransientException}, a rollback a {@code
     * SQLTransactionRollbackException} (a constraint: {@code SQLIntegrityConstraintViolationException}),
     * an unknown outcome SQLState {@code 40003}. {@code unwrap(Database.class)} on the data
     * source or a connection gives this database.
     *
     * <p><b>On a cluster</b> ({@link Lanes#openCluster}) auto-commit reads run as {@link
     * #query} runs them there: the column labels are the rows' (an empty result has no columns)
     * and every declared type is unknown ({@code getColumnTypeName} as for an expression).
     * Auto-commit writes, batches, generated keys ({@code last_insert_rowid()} read on the
     * writer's session right after the insert) and read-write transactions with savepoints work
     * on the writer lane with the same outcomes ({@code UNKNOWN}: SQLState {@code 40003}). A
     * read-only transaction is one snapshot on a read session with the leader, beside the lane;
     * if that session fails after the first read, the snapshot is gone and the transaction's
     * later statements fail {@code NOT_STARTED} until it is rolled back. {@code getMetaData()}
     * is the driver's metadata on an in-memory copy of the schema committed when each call
     * began, also inside a transaction. Refused with {@link
     * java.sql.SQLFeatureNotSupportedException} before anything runs: a write that returns rows
     * ({@code RETURNING}).
     */
    javax.sql.DataSource dataSource();

    /**
     * The profiled form of this database's commands: each runs as its plain form does and
     * returns its result with a {@link Profile}. Cheap; the same object every time.
     */
    Profiling profiled();

    /** The lifecycle state. */
    DatabaseState state();

    /**
     * Completes when the writer connection is open and the {@linkplain
     * DatabaseOptions#initializer() initializer} ran, opening it now if it is not; fails with
     * {@link DatabaseDeadException} carrying the cause when it cannot open. Returns at once.
     */
    CompletableFuture<Database> whenReady();

    /**
     * Completes when the database reaches a final state: {@link DatabaseState#CLOSED}, or
     * {@link DatabaseState#DEAD} with its cause.
     */
    CompletableFuture<Termination> whenTerminated();

    /** Whether an interactive transaction is open now (the writer lane is pinned to it). */
    boolean isTransactionOpen();

    /**
     * Tells {@code listener} each time an interactive transaction opens ({@code true}) or ends
     * ({@code false}), in that order, on the runtime's notification thread, never the writer's.
     * A throwing listener is logged and affects nothing else.
     */
    Subscription onTransactionStateChange(java.util.function.Consumer<Boolean> listener);

    /**
     * A point-in-time view of the database: its state, its writer, readers and checkpoints; never
     * touches SQLite.
     */
    DatabaseDiagnostics diagnostics();

    /**
     * Stops admission, drains accepted work, closes the connections. Waits up to {@link
     * DatabaseOptions#closeTimeout()}; past it throws {@link CloseTimeoutException} while the
     * close finishes in the background. The reads still running then are stopped inside SQLite
     * (they fail with {@link ReadFailedException}, {@link WriteOutcome#ROLLED_BACK}, saying the
     * database closed), and a JDBC result set of {@link #dataSource()} still streaming is ended
     * (its reader goes back, and its next page fails with {@link ClosedException}), so that the
     * close does not wait for a read that never ends or a user who never closes it: the reader
     * connections close and the file's lease is released, so the file can be opened again.
     * Idempotent.
     */
    @Override
    void close();

    /**
     * Stops admission, fails every queued write with {@link WriteOutcome#NOT_STARTED} and every
     * read waiting for a reader with {@link ClosedException}, lets only the running write turn
     * finish, stops the reads still running and ends the JDBC result sets still streaming (as
     * {@link #close()} does past its timeout), then closes as {@link #close()} does.
     */
    void shutdownNow();
}

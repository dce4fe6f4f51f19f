package dev.lanes.internal.cluster;

import dev.lanes.CheckpointMode;
import dev.lanes.CheckpointResult;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.Profiling;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Termination;
import dev.lanes.Transaction;
import dev.lanes.WriteOptions;
import dev.lanes.internal.engine.LaneDatabase;
import dev.lanes.internal.engine.LanesRuntime;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.jdbc.LanesDataSource;
import dev.lanes.internal.reader.Reads;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.telemetry.ReadTelemetry;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.writer.InteractiveTransaction;
import dev.lanes.internal.writer.LaneGauges;
import dev.lanes.internal.writer.LaneSetup;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterLane;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterSession;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link Database} on a replicated SQLite cluster ({@link ClusterEngine}): the cluster's
 * backend of {@link LaneDatabase}, with the same writer lane, group commit and outcomes as a
 * local database, over sessions with the cluster's leader. Its {@code path()} is its name on the
 * cluster, as a relative path: there is no local file.
 *
 * <ul>
 *   <li><b>Writes</b> ({@code execute}, {@code executeBatch}, {@code executeScript}, {@code
 *       begin()}, cork, and bodies: {@code write}, {@code writeAsync}, {@code tx.run}) run on a
 *       {@link WriterLane} whose connection is a {@link ClusterWriterConnection}: queued writes
 *       share one {@code BEGIN IMMEDIATE … COMMIT}, each body in its savepoint, and every
 *       transaction carries a group id, by which an uncertain {@code COMMIT} is resolved (see
 *       {@link GroupLedger}). A body's {@code java.sql.Connection} is the data source's, inside
 *       the lane's transaction ({@link BodyJdbc}). {@link StatementPolicy#CLUSTER_WRITER} and
 *       {@link StatementPolicy#CLUSTER_SCRIPT} admit the statements; {@code begin()} returns a
 *       {@link ClusterTransaction}.
 *   <li><b>Reads</b> ({@code query}, and bodies: {@code read}, {@code readAsync}) run on {@link
 *       ReadSessions} of their own with the leader, so that they do not wait behind a group's
 *       replication; while corked, on the lane, to see the corked writes. A read body's
 *       connection is the data source's read-only one: one snapshot on a read session.
 *   <li><b>Maintenance</b> runs on the lane alone and without the transaction wrap, each
 *       statement in auto-commit on the lane's session with the leader ({@link
 *       MaintenanceJdbc}), replicated on its own. {@code backup} writes an
 *       ordinary SQLite file from one read snapshot ({@link ClusterBackup}). {@code checkpoint}
 *       runs none (the nodes checkpoint their own copies) and says so.
 *   <li><b>Refused</b>, before anything runs ({@link InvalidRequestException}, {@code
 *       NOT_STARTED}): writes that return rows; {@code PRAGMA wal_checkpoint}; options only a
 *       local file has (see {@link ClusterOptions}).
 *   <li><b>JDBC</b> ({@code dataSource()}): on the lane and the read sessions, through {@link
 *       ClusterJdbc}, which says what it refuses.
 *   <li><b>Changes</b> carry the new version only: a cluster session tells no changed tables.
 * </ul>
 *
 * <p>Concurrency: every field is final and thread-safe.
 */
public final class ClusterDatabase extends LaneDatabase implements LanesRuntime.Attached {
    /** What {@link #checkpoint()} reports: none ran, there being no WAL here to checkpoint. */
    private static final CheckpointResult NO_CHECKPOINT = new CheckpointResult(false, -1, -1);

    private final WriterLane lane;
    private final ReadSessions reads;
    private final ClusterBackup backups;
    /** What answers the data source's {@code DatabaseMetaData}. */
    private final SchemaCopy schema;
    private final ReadTelemetry readTelemetry;
    private final Resolutions resolutions = new Resolutions();
    private final Profiling profiling;
    private final javax.sql.DataSource dataSource;

    /** What names a cluster database in its runtime: its engine and its name there. */
    private record Key(ClusterEngine engine, String database) {}

    private ClusterDatabase(LanesRuntime runtime, ClusterEngine engine, String database,
            DatabaseOptions options, Runnable forget) {
        this(runtime, engine, database, options, forget,
                new MetricsReporter(database, runtime.metrics()));
    }

    private ClusterDatabase(LanesRuntime runtime, ClusterEngine engine, String database,
            DatabaseOptions options, Runnable forget, MetricsReporter metrics) {
        super(Path.of(database), database, options, runtime, metrics);
        String name = database;
        Path path = path();
        ConnectionBudget budget = new ConnectionBudget(0); // a session is no file descriptor
        GroupLedger ledger = new GroupLedger(name, engine, database);
        this.schema = new SchemaCopy(this, runtime.pool(), this::transactionOfCurrentThread);
        this.lane = new WriterLane(new LaneSetup(name, path, options, runtime.pool(),
                runtime.clock(), runtime.timer(), budget, metrics, transactionListeners(),
                new ClusterWriterConnector(this, name, engine, database, options.busyTimeout(),
                        options.maxResultBytes(), ledger, resolutions, budget, schema,
                        runtime.shapes()),
                new DiskReserve(name, path, 0, runtime.clock(), metrics), new LaneSetup.Events() {
                    @Override
                    public void used() {
                        // no idle release on a cluster: the sessions are cheap to keep
                    }

                    @Override
                    public void closed() {
                        forget.run();
                    }
                }, runtime.shapes()));
        attachLane(lane);
        this.reads = new ReadSessions(name, engine, database, options.readers(),
                options.readerCheckoutTimeout(), options.busyTimeout(), options.maxResultBytes());
        this.backups = new ClusterBackup(name, reads, schema, runtime.pool());
        this.readTelemetry = new ReadTelemetry(name, options.maxReadDuration(), metrics);
        this.profiling = new ClusterProfiling(this, runtime.clock());
        this.dataSource = new LanesDataSource(new ClusterJdbc(this, lane, reads, schema));
        bindGauges(() -> new LaneGauges(lane, this::state));
    }

    /**
     * Opens {@code database} on {@code engine}, or returns the database of this runtime open
     * there; the first open connects to the leader and creates the group ledger before it
     * returns.
     *
     * @throws InvalidRequestException for an option a cluster cannot honour, naming it
     * @throws dev.lanes.DatabaseDeadException when no leader answered within {@code busyTimeout}
     */
    public static Database open(LanesRuntime runtime, ClusterEngine engine, String database,
            DatabaseOptions options) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(database, "name");
        Objects.requireNonNull(options, "options");
        if (database.isBlank()) {
            throw new IllegalArgumentException("the database name must not be blank");
        }
        ClusterOptions.check(database, options);
        return runtime.attach(new Key(engine, database), options, forget -> {
            ClusterDatabase db = new ClusterDatabase(runtime, engine, database, options, forget);
            try {
                Failures.join(db.lane.awaitReady());
            } catch (RuntimeException e) {
                db.startClose(false);
                throw e;
            }
            return db;
        });
    }

    /** How the uncertain commits of this database were resolved so far. */
    public Resolutions.Counts resolutions() {
        return resolutions.snapshot();
    }

    @Override
    public Database database() {
        return this;
    }

    // ------------------------------------------------------------------ hooks

    @Override
    protected WriterLane lane() {
        return lane;
    }

    @Override
    protected StatementPolicy writerPolicy() {
        return StatementPolicy.CLUSTER_WRITER;
    }

    @Override
    protected SqlFunction<int[]> batchWork(List<dev.lanes.Statement> batch) {
        return new LaneWorks.Batch(batch);
    }

    @Override
    protected StatementPolicy scriptPolicy() {
        return StatementPolicy.CLUSTER_SCRIPT;
    }

    @Override
    protected SqlFunction<Integer> scriptWork(List<String> statements) {
        return new LaneWorks.Script(statements);
    }

    /** Takes every request: a cluster database has no file of its own to find swapped. */
    @Override
    protected void admit(WriteRequest r) {
        // nothing to check
    }

    @Override
    protected Transaction userTransaction(Transaction laneTransaction) {
        return new ClusterTransaction(this, (InteractiveTransaction) laneTransaction);
    }

    /** The read-write transaction the calling thread holds on the lane, or null. */
    private InteractiveTransaction transactionOfCurrentThread() {
        return lane.transactionOfCurrentThread();
    }

    // ------------------------------------------------------------------ reads

    /**
     * A read-only query on a read session; while corked, on the lane. {@link
     * ReadOptions#timeout()} does not apply: the engine's request timeout bounds a read.
     */
    @Override
    protected List<Row> runQuery(ReadOptions options, String sql, Object[] bound) {
        return queryWithColumns(options, sql, bound).rows();
    }

    /** {@link #runQuery}, with the result's column names. */
    ClusterSession.Result queryWithColumns(ReadOptions options, String sql, Object... args) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(sql, "sql");
        Object[] bound = args == null ? new Object[0] : args;
        StatementShape shape = shapes().of(sql);
        return measuredRead(shape.firstKeyword(), () -> {
            StatementPolicy.READER.admit(name(), shape, StatementPolicy.UNKNOWN_ATTACH_LIMIT);
            return onReadPath(sql, bound);
        });
    }

    /**
     * A query of the data source, which admitted {@code shape} as a read: {@code sql} (its text,
     * or the connection's rewrite of it) runs as {@link #queryWithColumns} runs a query.
     */
    ClusterSession.Result admittedQuery(StatementShape shape, String sql, Object[] args) {
        return measuredRead(shape.firstKeyword(), () -> onReadPath(sql, args));
    }

    /** A read on a read session; while corked, on the lane. */
    private ClusterSession.Result onReadPath(String sql, Object[] bound) {
        if (lane.corked()) {
            return runAndWait(lane.body(WriteOptions.DEFAULTS, new LaneWorks.Query(sql, bound)));
        }
        return reads.queryWithColumns(sql, bound);
    }

    /**
     * {@link #runQuery}, then each row in order: a read session
     * returns its result whole, so {@link DatabaseOptions#maxResultBytes()} bounds it here.
     */
    @Override
    protected long runStream(ReadOptions options, String sql, Object[] bound,
            Consumer<Row> each) {
        List<Row> rows = runQuery(options, sql, bound);
        rows.forEach(each);
        return rows.size();
    }

    /** A read measured for the telemetry; {@code kind} is its first keyword. */
    private <T> T measuredRead(String kind, Supplier<T> read) {
        long started = runtime().clock().nanoTime();
        try {
            T value = read.get();
            readTelemetry.finished(kind, runtime().clock().nanoTime() - started, null);
            return value;
        } catch (RuntimeException e) {
            readTelemetry.finished(kind, runtime().clock().nanoTime() - started, e);
            throw e;
        }
    }

    /**
     * A read body on a read-only connection of the data source: one snapshot on a read session;
     * while corked, on the lane. As for {@link #query}, {@link ReadOptions#timeout()} does not
     * apply.
     */
    @Override
    protected <T> T runRead(ReadOptions options, SqlFunction<T> body) {
        return measuredRead(null, () -> lane.corked()
                ? runAndWait(lane.readBody(c -> ConnectionGuard.read(name(), c,
                        ConnectionGuard.StopCheck.NONE, shapes()).run(body, false), false))
                : ReadBodies.run(name(), dataSource, shapes(), body));
    }

    /** {@link #runRead} as a turn of the runtime's pool. */
    @Override
    protected <T> CompletableFuture<T> runReadAsync(ReadOptions options,
            SqlFunction<T> body) {
        return ReadBodies.async(runtime().pool(), () -> runRead(options, body));
    }

    @Override
    public Profiling profiled() {
        return profiling;
    }

    /**
     * The JDBC data source, on this database's lane and read sessions: see {@link ClusterJdbc}
     * for what runs where and what is refused.
     */
    @Override
    public javax.sql.DataSource dataSource() {
        return dataSource;
    }

    // ------------------------------------------------------------------ the nodes' business

    /**
     * Runs no checkpoint and says so: {@code (busy false, walFrames -1, checkpointedFrames -1)},
     * as for a database without a WAL of its own to checkpoint. Each node checkpoints its own copy
     * of the database; one run through a session makes libdqlite 1.11's leader abort at its next
     * write (so {@code PRAGMA wal_checkpoint} is refused on a cluster, {@link
     * dev.lanes.internal.sql.text.Rule#CLUSTER_CHECKPOINT}).
     */
    @Override
    public CheckpointResult checkpoint() {
        return NO_CHECKPOINT;
    }

    /**
     * Writes an ordinary SQLite file at {@code target} from one read snapshot of the cluster
     * database ({@link ClusterBackup}), on a read session, beside the writer lane.
     */
    @Override
    public void backup(Path target) {
        backups.run(Objects.requireNonNull(target, "target"));
    }

    // ------------------------------------------------------------------ state

    @Override
    public DatabaseState state() {
        return lane.state();
    }

    @Override
    public CompletableFuture<Termination> whenTerminated() {
        return lane.whenTerminated();
    }

    @Override
    public DatabaseDiagnostics diagnostics() {
        WriterLane.View v = lane.view();
        return new DatabaseDiagnostics(path(), v.state(), Optional.ofNullable(v.deadCause()),
                v.writer(), reads.diagnostics(),
                new DatabaseDiagnostics.Checkpoints(CheckpointMode.EXTERNAL, 0,
                        Optional.empty(), Optional.empty(), Optional.empty(), 0, 0,
                        Optional.empty()));
    }

    // ------------------------------------------------------------------ close

    @Override
    public void closeTimedOut(long nanos) {
        lane.closeTimedOut(nanos);
    }

    @Override
    public void uncleanClose() {
        lane.uncleanClose();
    }

    /** Stops the reads, then the lane (draining it or not); the engine stays its owner's. */
    @Override
    protected CompletableFuture<Void> startClose(boolean drain) {
        reads.close();
        schema.close();
        return lane.beginClose(drain);
    }

    @Override
    public String toString() {
        return "ClusterDatabase[" + name() + ", " + state() + "]";
    }
}

package dev.lanes.internal.cluster;

import dev.lanes.Change;
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
import dev.lanes.Subscription;
import dev.lanes.Termination;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.LanesRuntime;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.jdbc.LanesDataSource;
import dev.lanes.internal.notify.ChangeNotifier;
import dev.lanes.internal.notify.TransactionStateListeners;
import dev.lanes.internal.reader.Reads;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.telemetry.ReadTelemetry;
import dev.lanes.internal.util.CloseWait;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Threads;
import dev.lanes.internal.writer.InteractiveTransaction;
import dev.lanes.internal.writer.LaneGauges;
import dev.lanes.internal.writer.LaneSetup;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterLane;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * A {@link Database} on a replicated SQLite cluster ({@link ClusterEngine}): the same writer
 * lane, group commit and outcomes as a local database, over sessions with the cluster's leader.
 *
 * <ul>
 *   <li><b>Writes</b> ({@code execute}, {@code executeBatch}, {@code executeScript}, {@code
 *       begin()}, cork, and bodies: {@code write}, {@code writeAsync}, {@code tx.run}) run on a
 *       {@link WriterLane} whose connection is a {@link ClusterWriterConnection}: queued writes
 *       share one {@code BEGIN IMMEDIATE … COMMIT}, each body in its savepoint, and every
 *       transaction carries a group id, by which an uncertain {@code COMMIT} is resolved (see
 *       {@link GroupLedger}). A body's {@code java.sql.Connection} is the data source's, inside
 *       the lane's transaction ({@link BodyJdbc}).
 *   <li><b>Reads</b> ({@code query}, and bodies: {@code read}, {@code readAsync}) run on {@link
 *       ReadSessions} of their own with the leader, so that they do not wait behind a group's
 *       replication; while corked, on the lane, to see the corked writes. A read body's
 *       connection is the data source's read-only one: one snapshot on a read session.
 *   <li><b>Maintenance</b> runs on the lane without the transaction wrap, each statement in
 *       auto-commit on the lane's session ({@link MaintenanceJdbc}). {@code backup} writes an
 *       ordinary SQLite file from one read snapshot ({@link ClusterBackup}). {@code checkpoint}
 *       runs none (the nodes checkpoint their own copies) and says so.
 *   <li><b>Refused</b>, before anything runs ({@link InvalidRequestException}, {@code
 *       NOT_STARTED}): writes that return rows; {@code PRAGMA wal_checkpoint}; options only a
 *       local file has (see {@link ClusterOptions}).
 *   <li><b>JDBC</b> ({@code dataSource()}): on the lane and the read sessions, through {@link
 *       ClusterJdbc}, which says what it refuses.
 * </ul>
 *
 * <p>Concurrency: every field is final and thread-safe.
 */
public final class ClusterDatabase implements Database, LanesRuntime.Attached {
    /** What {@link #checkpoint()} reports: none ran, there being no WAL here to checkpoint. */
    private static final CheckpointResult NO_CHECKPOINT = new CheckpointResult(false, -1, -1);

    private final String name;
    private final Path path;
    private final DatabaseOptions options;
    private final WriterLane lane;
    private final ReadSessions reads;
    private final ClusterBackup backups;
    /** What answers the data source's {@code DatabaseMetaData}. */
    private final SchemaCopy schema;
    private final ChangeNotifier changes;
    private final TransactionStateListeners transactionListeners;
    private final ReadTelemetry readTelemetry;
    private final Resolutions resolutions = new Resolutions();
    private final Profiling profiling;
    private final LanesRuntime runtime;
    private final javax.sql.DataSource dataSource;

    /** What names a cluster database in its runtime: its engine and its name there. */
    private record Key(ClusterEngine engine, String database) {}

    private ClusterDatabase(LanesRuntime runtime, ClusterEngine engine, String database,
            DatabaseOptions options, Runnable forget) {
        this.runtime = runtime;
        this.name = database;
        this.path = Path.of(database);
        this.options = options;
        MetricsReporter metrics = new MetricsReporter(name, runtime.metrics());
        this.transactionListeners = new TransactionStateListeners(name,
                runtime.changeDispatcher());
        ConnectionBudget budget = new ConnectionBudget(0); // a session is no file descriptor
        GroupLedger ledger = new GroupLedger(name, engine, database);
        this.schema = new SchemaCopy(this, runtime.pool(), this::transactionOfCurrentThread);
        this.lane = new WriterLane(new LaneSetup(name, path, options, runtime.pool(),
                runtime.clock(), runtime.timer(), budget, metrics, transactionListeners,
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
        lane.background(options.background());
        this.reads = new ReadSessions(name, engine, database, options.readers(),
                options.readerCheckoutTimeout(), options.busyTimeout(), options.maxResultBytes());
        this.backups = new ClusterBackup(name, reads, schema, runtime.pool());
        this.changes = new ChangeNotifier(name, runtime.changeDispatcher(), runtime.clock(),
                metrics);
        lane.commitObserver(changes);
        this.readTelemetry = new ReadTelemetry(name, options.maxReadDuration(), metrics);
        this.profiling = new ClusterProfiling(this, runtime.clock());
        this.dataSource = new LanesDataSource(new ClusterJdbc(this, lane, reads, schema));
        try {
            runtime.metrics().databaseOpened(name, new LaneGauges(lane, this::state));
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(LogNames.METRICS)
                    .warn("{}: the metrics listener failed to bind its gauges", name, e);
        }
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
                db.closeAll(false);
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
    public String name() {
        return name;
    }

    @Override
    public DatabaseOptions options() {
        return options;
    }

    @Override
    public Database database() {
        return this;
    }

    /** The database's name on the cluster, as a relative path: there is no local file. */
    @Override
    public Path path() {
        return path;
    }

    // ------------------------------------------------------------------ writes

    @Override
    public <T> T write(SqlFunction<T> body) {
        return write(WriteOptions.DEFAULTS, body);
    }

    @Override
    public <T> T write(WriteOptions options, SqlFunction<T> body) {
        return runAndWait(bodyRequest(options, body));
    }

    @Override
    public <T> CompletableFuture<T> writeAsync(SqlFunction<T> body) {
        return writeAsync(WriteOptions.DEFAULTS, body);
    }

    @Override
    public <T> CompletableFuture<T> writeAsync(WriteOptions options, SqlFunction<T> body) {
        @SuppressWarnings("unchecked")
        CompletableFuture<T> future = (CompletableFuture<T>) (CompletableFuture<?>)
                lane.submitAsync(bodyRequest(options, body));
        return future;
    }

    private WriteRequest bodyRequest(WriteOptions options, SqlFunction<?> body) {
        return lane.body(Objects.requireNonNull(options, "options"),
                Objects.requireNonNull(body, "body"));
    }

    @Override
    public int execute(String sql, Object... args) {
        return runAndWait(statement(sql, args));
    }

    /** A statement request, refused before anything runs when it may not run. */
    WriteRequest statement(String sql, Object[] args) {
        Objects.requireNonNull(sql, "sql");
        StatementShape shape = shapes().of(sql);
        StatementPolicy.CLUSTER_WRITER.admit(name, shape, options.maxAttachedDatabases());
        return lane.statement(shape, args == null ? new Object[0] : args);
    }

    /** The runtime's statement shapes. */
    Shapes shapes() {
        return runtime.shapes();
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> statements) {
        return runAndWait(batch(statements));
    }

    /** A batch as one write request, refused before anything runs when a statement may not. */
    WriteRequest batch(List<dev.lanes.Statement> statements) {
        Objects.requireNonNull(statements, "statements");
        List<dev.lanes.Statement> batch = List.copyOf(statements);
        for (int i = 0; i < batch.size(); i++) {
            StatementPolicy.CLUSTER_WRITER.admit(name, shapes().of(batch.get(i).sql()),
                    options.maxAttachedDatabases(), "statement " + i + " of the batch");
        }
        return lane.body(WriteOptions.DEFAULTS, new LaneWorks.Batch(batch));
    }

    @Override
    public int executeScript(String sql) {
        Objects.requireNonNull(sql, "sql");
        StatementShape shape = shapes().of(sql);
        StatementPolicy.CLUSTER_SCRIPT.admit(name, shape, options.maxAttachedDatabases());
        List<String> statements = shapes().statements(shape);
        return runAndWait(lane.body(WriteOptions.DEFAULTS, new LaneWorks.Script(statements)));
    }

    /**
     * Runs {@code body} on the lane, alone and without the transaction wrap, as on a local file:
     * its connection's statements run in auto-commit on the lane's session with the leader
     * ({@link MaintenanceJdbc}), each replicated on its own.
     */
    @Override
    public <T> T maintenance(SqlFunction<T> body) {
        return runAndWait(lane.maintenance(Objects.requireNonNull(body, "body")));
    }

    @Override
    public Transaction begin() {
        return begin(TransactionOptions.DEFAULTS);
    }

    @Override
    public Transaction begin(TransactionOptions options) {
        Objects.requireNonNull(options, "options");
        Transaction tx = runAndWait(lane.begin(options));
        return new ClusterTransaction(this, (InteractiveTransaction) tx);
    }

    @Override
    public void cork() {
        lane.cork(!Threads.currentIsVirtual());
    }

    @Override
    public void uncork() {
        WriteRequest r = lane.uncork(!Threads.currentIsVirtual());
        if (r != null) {
            Failures.join(r.future());
        }
    }

    <T> T runAndWait(WriteRequest r) {
        return lane.runAndWait(r, !Threads.currentIsVirtual());
    }

    /** {@link #runAndWait(WriteRequest)}, withdrawn unrun if not taken in {@code startTimeout}. */
    <T> T runAndWait(WriteRequest r, Duration startTimeout) {
        return lane.runAndWait(r, !Threads.currentIsVirtual(), startTimeout);
    }

    /** The read-write transaction the calling thread holds on the lane, or null. */
    private InteractiveTransaction transactionOfCurrentThread() {
        return lane.transactionOfCurrentThread();
    }

    // ------------------------------------------------------------------ reads

    @Override
    public List<Row> query(String sql, Object... args) {
        return query(ReadOptions.DEFAULTS, sql, args);
    }

    /**
     * A read-only query on a read session; while corked, on the lane. {@link
     * ReadOptions#timeout()} does not apply: the engine's request timeout bounds a read.
     */
    @Override
    public List<Row> query(ReadOptions options, String sql, Object... args) {
        return queryWithColumns(options, sql, args).rows();
    }

    /** {@link #query(ReadOptions, String, Object...)}, with the result's column names. */
    ClusterSession.Result queryWithColumns(ReadOptions options, String sql, Object... args) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(sql, "sql");
        Object[] bound = args == null ? new Object[0] : args;
        StatementShape shape = shapes().of(sql);
        return measuredRead(shape.firstKeyword(), () -> {
            StatementPolicy.READER.admit(name, shape, StatementPolicy.UNKNOWN_ATTACH_LIMIT);
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

    @Override
    public long stream(String sql, Object[] args, Consumer<Row> each) {
        return stream(ReadOptions.DEFAULTS, sql, args, each);
    }

    /**
     * {@link #query(ReadOptions, String, Object...)}, then each row in order: a read session
     * returns its result whole, so {@link DatabaseOptions#maxResultBytes()} bounds it here.
     */
    @Override
    public long stream(ReadOptions options, String sql, Object[] args, Consumer<Row> each) {
        Objects.requireNonNull(each, "each");
        List<Row> rows = query(options, sql, args == null ? new Object[0] : args);
        rows.forEach(each);
        return rows.size();
    }

    /** A read measured for the telemetry; {@code kind} is its first keyword. */
    private <T> T measuredRead(String kind, Supplier<T> read) {
        long started = runtime.clock().nanoTime();
        try {
            T value = read.get();
            readTelemetry.finished(kind, runtime.clock().nanoTime() - started, null);
            return value;
        } catch (RuntimeException e) {
            readTelemetry.finished(kind, runtime.clock().nanoTime() - started, e);
            throw e;
        }
    }

    @Override
    public <T> T read(SqlFunction<T> body) {
        return read(ReadOptions.DEFAULTS, body);
    }

    /**
     * A read body on a read-only connection of the data source: one snapshot on a read session;
     * while corked, on the lane. As for {@link #query}, {@link ReadOptions#timeout()} does not
     * apply.
     */
    @Override
    public <T> T read(ReadOptions options, SqlFunction<T> body) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(body, "body");
        return measuredRead(null, () -> lane.corked()
                ? runAndWait(lane.readBody(c -> ConnectionGuard.read(name, c,
                        ConnectionGuard.StopCheck.NONE, shapes()).run(body, false), false))
                : ReadBodies.run(name, dataSource, shapes(), body));
    }

    @Override
    public <T> CompletableFuture<T> readAsync(SqlFunction<T> body) {
        return readAsync(ReadOptions.DEFAULTS, body);
    }

    /** {@link #read(ReadOptions, SqlFunction)} as a turn of the runtime's pool. */
    @Override
    public <T> CompletableFuture<T> readAsync(ReadOptions options, SqlFunction<T> body) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(body, "body");
        return ReadBodies.async(runtime.pool(), () -> read(options, body));
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

    // ------------------------------------------------------------------ notifications

    /** Changes carry the new version only: a cluster session tells no changed tables. */
    @Override
    public Subscription onChange(Consumer<Change> listener) {
        return changes.subscribe(listener);
    }

    @Override
    public long changeVersion() {
        return changes.version();
    }

    @Override
    public Subscription onTransactionStateChange(Consumer<Boolean> listener) {
        return transactionListeners.subscribe(Objects.requireNonNull(listener, "listener"));
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
    public CompletableFuture<Database> whenReady() {
        return lane.awaitReady().thenApply(v -> this);
    }

    @Override
    public CompletableFuture<Termination> whenTerminated() {
        return lane.whenTerminated();
    }

    @Override
    public boolean isTransactionOpen() {
        return lane.transactionOpen();
    }

    @Override
    public DatabaseDiagnostics diagnostics() {
        WriterLane.View v = lane.view();
        return new DatabaseDiagnostics(path, v.state(), Optional.ofNullable(v.deadCause()),
                v.writer(), reads.diagnostics(),
                new DatabaseDiagnostics.Checkpoints(CheckpointMode.EXTERNAL, 0,
                        Optional.empty(), Optional.empty(), Optional.empty(), 0, 0,
                        Optional.empty()));
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() {
        awaitClose(closeAll(true));
    }

    @Override
    public void shutdownNow() {
        awaitClose(closeAll(false));
    }

    @Override
    public CompletableFuture<Void> beginClose() {
        return closeAll(true);
    }

    @Override
    public void closeTimedOut(long nanos) {
        lane.closeTimedOut(nanos);
    }

    @Override
    public void uncleanClose() {
        lane.uncleanClose();
    }

    /** Stops the reads, then the lane (draining it or not); the engine stays its owner's. */
    private CompletableFuture<Void> closeAll(boolean drain) {
        reads.close();
        schema.close();
        return lane.beginClose(drain);
    }

    private void awaitClose(CompletableFuture<Void> closed) {
        CloseWait.await(closed, options.closeTimeout(), name, lane::closeTimedOut,
                () -> lane.view().writer().queued());
    }

    @Override
    public String toString() {
        return "ClusterDatabase[" + name + ", " + state() + "]";
    }
}

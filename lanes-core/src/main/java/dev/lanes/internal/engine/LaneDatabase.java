package dev.lanes.internal.engine;

import dev.lanes.Change;
import dev.lanes.CheckpointResult;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.Profiling;
import dev.lanes.ReadOptions;
import dev.lanes.Reading;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Subscription;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteOptions;
import dev.lanes.internal.notify.ChangeNotifier;
import dev.lanes.internal.notify.TransactionStateListeners;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.CloseWait;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Threads;
import dev.lanes.internal.writer.LaneGauges;
import dev.lanes.internal.writer.LaneSetup;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterLane;
import dev.lanes.spi.CommitFence;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * The one facade of a {@link Database} over a {@link WriterLane}, and the backend port: a
 * backend (a local SQLite file, {@link DatabaseImpl}; a replicated cluster, {@code
 * cluster.ClusterDatabase}; tenants owned across machines) extends it and supplies only what
 * differs between backends, through the hooks declared here.
 *
 * <p>Written once here: the reads, each form with the database's default options or, through
 * {@link #reading}, with the caller's ({@link BoundReading}); the writes
 * ({@code write}, {@code writeAsync}, {@code execute}, {@code executeBatch}, {@code
 * executeScript}, {@code maintenance}, {@code begin}, cork), each refused before anything runs
 * when it may not run and then run as one request on the lane; change and transaction-state
 * notifications; readiness; and the close's wait, bounded by {@code closeTimeout}.
 *
 * <p>The hooks of a backend: the statement policies that admit a write and a script ({@link
 * #writerPolicy()}, {@link #scriptPolicy()}); the work that runs a batch and a script on the
 * lane ({@link #batchWork}, {@link #scriptWork}); a request's admission before it reaches the
 * lane ({@link #admit}); what {@code begin} returns ({@link #userTransaction}); where reads run
 * ({@link #runQuery}, {@link #runStream}, {@link
 * #runRead}, {@link #runReadAsync}); checkpoint and backup; state, termination and diagnostics;
 * profiling and the data source; and the close ({@link #startClose}, {@link #closeTimedOut}).
 * A backend builds its lane with this database's {@link #transactionListeners()}, then hands it
 * to {@link #attachLane} and answers it from {@link #lane()}.
 *
 * <p>Concurrency: every field is final and thread-safe.
 */
public abstract class LaneDatabase implements Database {
    private final Path path;
    private final String name;
    private final DatabaseOptions options;
    private final LanesRuntime runtime;
    private final ChangeNotifier changes;
    private final TransactionStateListeners transactionListeners;

    /**
     * A database named {@code name} at {@code path} (on a cluster, its name as a relative path),
     * reporting to {@code metrics}; the backend builds its lane next and hands it to {@link
     * #attachLane}.
     */
    protected LaneDatabase(Path path, String name, DatabaseOptions options,
            LanesRuntime runtime, MetricsReporter metrics) {
        this.path = path;
        this.name = name;
        this.options = options;
        this.runtime = runtime;
        this.transactionListeners = new TransactionStateListeners(name,
                runtime.changeDispatcher());
        this.changes = new ChangeNotifier(name, runtime.changeDispatcher(), runtime.clock(),
                metrics);
    }

    /** Runs {@code lane} in the options' background mode and tells its commits to listeners. */
    protected final void attachLane(WriterLane lane) {
        lane.background(options.background());
        lane.commitObserver(changes);
    }

    /** Binds the gauges {@code gauges} makes; a failing metrics listener is logged, not thrown. */
    protected final void bindGauges(Supplier<? extends LaneGauges> gauges) {
        try {
            runtime.metrics().databaseOpened(name, gauges.get());
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(LogNames.METRICS)
                    .warn("{}: the metrics listener failed to bind its gauges", name, e);
        }
    }

    /** The listeners of the transaction state, which the backend's lane reports to. */
    protected final TransactionStateListeners transactionListeners() {
        return transactionListeners;
    }

    // ------------------------------------------------------------------ hooks

    /** The writer lane every write of this database runs on. */
    protected abstract WriterLane lane();

    /** The policy that admits a statement of {@code execute} and of a batch. */
    protected abstract StatementPolicy writerPolicy();

    /** The body that runs {@code batch}, admitted, on the lane: its update counts. */
    protected abstract SqlFunction<int[]> batchWork(List<dev.lanes.Statement> batch);

    /** The policy that admits the text of {@code executeScript}. */
    protected abstract StatementPolicy scriptPolicy();

    /** The body that runs {@code statements}, a script's, on the lane: the rows changed. */
    protected abstract SqlFunction<Integer> scriptWork(List<String> statements);

    /**
     * Refuses {@code r} before it reaches the lane when this backend may not take it (for a
     * local file, once the file was found swapped), ending its metrics bracket ({@link
     * WriterLane#refused}); does nothing otherwise.
     */
    protected abstract void admit(WriteRequest r);

    /** What {@code begin} returns for {@code laneTransaction}, the transaction the lane began. */
    protected abstract Transaction userTransaction(Transaction laneTransaction);

    /** A query, its arguments checked and bound: runs where this backend runs a read. */
    protected abstract List<Row> runQuery(ReadOptions options, String sql, Object[] bound);

    /** A read body, its arguments checked: runs where this backend runs a read. */
    protected abstract <T> T runRead(ReadOptions options, SqlFunction<T> body);

    /** A read body, its arguments checked, whose caller does not wait for it. */
    protected abstract <T> CompletableFuture<T> runReadAsync(ReadOptions options,
            SqlFunction<T> body);

    /** Each row of a query, its arguments checked, in order, where this backend runs a read. */
    protected abstract long runStream(ReadOptions options, String sql, Object[] args,
            Consumer<Row> each);

    /** This backend's checkpoint. */
    @Override
    public abstract CheckpointResult checkpoint();

    /** This backend's backup to {@code target}. */
    @Override
    public abstract void backup(Path target);

    /** This backend's diagnostics. */
    @Override
    public abstract DatabaseDiagnostics diagnostics();

    /** This backend's profiling of the calls of this database. */
    @Override
    public abstract Profiling profiled();

    /** This backend's JDBC data source. */
    @Override
    public abstract DataSource dataSource();

    /**
     * Starts closing, draining accepted work or not; completes when the lane and every other
     * connection of the database closed.
     */
    protected abstract CompletableFuture<Void> startClose(boolean drain);

    /** The close passed its {@code closeTimeout} after {@code nanos}: stops what still runs. */
    public abstract void closeTimedOut(long nanos);

    // ------------------------------------------------------------------ parts

    @Override
    public Path path() {
        return path;
    }

    /** The database's name, in logs, messages and metrics. */
    public String name() {
        return name;
    }

    /** The options the database was opened with. */
    public DatabaseOptions options() {
        return options;
    }

    /** The runtime the database belongs to. */
    protected final LanesRuntime runtime() {
        return runtime;
    }

    /** The runtime's statement shapes. */
    public Shapes shapes() {
        return runtime.shapes();
    }

    // ------------------------------------------------------------------ writes

    @Override
    public <T> T write(SqlFunction<T> body) {
        return write(WriteOptions.DEFAULTS, body);
    }

    @Override
    public <T> T write(WriteOptions options, SqlFunction<T> body) {
        return runAndAcknowledge(lane().body(requireOptions(options), requireBody(body)), null);
    }

    @Override
    public <T> CompletableFuture<T> writeAsync(SqlFunction<T> body) {
        return writeAsync(WriteOptions.DEFAULTS, body);
    }

    @Override
    public <T> CompletableFuture<T> writeAsync(WriteOptions options, SqlFunction<T> body) {
        return lane().setup().acknowledged(submitAsync(lane().body(requireOptions(options),
                requireBody(body))));
    }

    @Override
    public int execute(String sql, Object... args) {
        return runAndAcknowledge(statement(sql, args), null);
    }

    /** A statement request, refused before anything runs when it may not run. */
    public WriteRequest statement(String sql, Object[] args) {
        Objects.requireNonNull(sql, "sql");
        StatementShape shape = shapes().of(sql);
        writerPolicy().admit(name, shape, options.maxAttachedDatabases());
        return lane().statement(shape, args == null ? new Object[0] : args);
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> statements) {
        return runAndAcknowledge(batch(statements), null);
    }

    /** A batch as one write request, refused before anything runs when a statement may not. */
    public WriteRequest batch(List<dev.lanes.Statement> statements) {
        Objects.requireNonNull(statements, "statements");
        List<dev.lanes.Statement> batch = List.copyOf(statements);
        for (int i = 0; i < batch.size(); i++) {
            writerPolicy().admit(name, shapes().of(batch.get(i).sql()),
                    options.maxAttachedDatabases(), "statement " + i + " of the batch");
        }
        return lane().body(WriteOptions.DEFAULTS, batchWork(batch));
    }

    @Override
    public int executeScript(String sql) {
        Objects.requireNonNull(sql, "sql");
        StatementShape shape = shapes().of(sql);
        scriptPolicy().admit(name, shape, options.maxAttachedDatabases());
        List<String> statements = shapes().statements(shape);
        return runAndAcknowledge(lane().body(WriteOptions.DEFAULTS, scriptWork(statements)),
                null);
    }

    @Override
    public <T> T maintenance(SqlFunction<T> body) {
        return runAndAcknowledge(lane().maintenance(requireBody(body)), null);
    }

    @Override
    public Transaction begin() {
        return begin(TransactionOptions.DEFAULTS);
    }

    @Override
    public Transaction begin(TransactionOptions options) {
        Objects.requireNonNull(options, "options");
        return userTransaction(runAndWait(lane().begin(options)));
    }

    @Override
    public void cork() {
        lane().cork(!Threads.currentIsVirtual());
    }

    @Override
    public void uncork() {
        WriteRequest r = lane().uncork(!Threads.currentIsVirtual());
        if (r != null) {
            Failures.join(r.future());
            lane().setup().acknowledge();
        }
    }

    /** Runs a request for a caller that waits for it; see {@link WriterLane#runAndWait}. */
    public <T> T runAndWait(WriteRequest r) {
        return runAndWait(r, null);
    }

    /** {@link #runAndWait(WriteRequest)}, withdrawn unrun if not started within a timeout. */
    public <T> T runAndWait(WriteRequest r, Duration startTimeout) {
        admit(r);
        return lane().runAndWait(r, !Threads.currentIsVirtual(), startTimeout);
    }

    /**
     * {@link #runAndWait(WriteRequest, Duration)} for a request that may commit, returning once
     * the database's {@link CommitFence} (if any) acknowledged it ({@link LaneSetup#acknowledge}).
     */
    public <T> T runAndAcknowledge(WriteRequest r, Duration startTimeout) {
        T result = runAndWait(r, startTimeout);
        lane().setup().acknowledge();
        return result;
    }

    /** Submits a request whose caller does not wait for it. */
    public <T> CompletableFuture<T> submitAsync(WriteRequest r) {
        admit(r);
        @SuppressWarnings("unchecked")
        CompletableFuture<T> future = (CompletableFuture<T>) (CompletableFuture<?>)
                lane().submitAsync(r);
        return future;
    }

    // ------------------------------------------------------------------ reads

    @Override
    public List<Row> query(String sql, Object... args) {
        return query(ReadOptions.DEFAULTS, sql, args);
    }

    @Override
    public long stream(String sql, Object[] args, Consumer<Row> each) {
        return stream(ReadOptions.DEFAULTS, sql, args, each);
    }

    @Override
    public <T> T read(SqlFunction<T> body) {
        return read(ReadOptions.DEFAULTS, body);
    }

    @Override
    public <T> CompletableFuture<T> readAsync(SqlFunction<T> body) {
        return readAsync(ReadOptions.DEFAULTS, body);
    }

    @Override
    public Reading reading(ReadOptions options) {
        return new BoundReading(this, Objects.requireNonNull(options, "options"));
    }

    /** A query with {@code options}: the one path of every query form of this database. */
    protected final List<Row> query(ReadOptions options, String sql, Object[] args) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(sql, "sql");
        return runQuery(options, sql, args == null ? new Object[0] : args);
    }

    /** A stream with {@code options}. */
    protected final long stream(ReadOptions options, String sql, Object[] args,
            Consumer<Row> each) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(each, "each");
        return runStream(options, sql, args == null ? new Object[0] : args, each);
    }

    /** A read body with {@code options}. */
    protected final <T> T read(ReadOptions options, SqlFunction<T> body) {
        Objects.requireNonNull(options, "options");
        return runRead(options, requireBody(body));
    }

    /** A read body with {@code options}, whose caller does not wait for it. */
    protected final <T> CompletableFuture<T> readAsync(ReadOptions options,
            SqlFunction<T> body) {
        Objects.requireNonNull(options, "options");
        return runReadAsync(options, requireBody(body));
    }

    // ------------------------------------------------------------------ notifications

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

    // ------------------------------------------------------------------ state

    @Override
    public CompletableFuture<Database> whenReady() {
        return lane().awaitReady().thenApply(v -> this);
    }

    @Override
    public boolean isTransactionOpen() {
        return lane().transactionOpen();
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() {
        awaitClose(startClose(true));
    }

    @Override
    public void shutdownNow() {
        awaitClose(startClose(false));
    }

    /** Starts closing without waiting; for the runtime, which waits for all of them at once. */
    public CompletableFuture<Void> beginClose() {
        return startClose(true);
    }

    /** Waits, uninterruptibly and at most {@code closeTimeout}, for the close to complete. */
    private void awaitClose(CompletableFuture<Void> closed) {
        CloseWait.await(closed, options.closeTimeout(), name, this::closeTimedOut,
                () -> lane().view().writer().queued());
    }

    private static WriteOptions requireOptions(WriteOptions options) {
        return Objects.requireNonNull(options, "options");
    }

    /** {@code body}, refused when null. */
    protected static <T> SqlFunction<T> requireBody(SqlFunction<T> body) {
        return Objects.requireNonNull(body, "body");
    }
}

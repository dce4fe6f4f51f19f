package dev.lanes.internal.engine;

import dev.lanes.CheckpointResult;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.IdentityMismatchException;
import dev.lanes.LanesException;
import dev.lanes.Profiling;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Termination;
import dev.lanes.Transaction;
import dev.lanes.internal.file.Checkpointer;
import dev.lanes.internal.file.DiskReserve;
import dev.lanes.internal.file.Lease;
import dev.lanes.internal.jdbc.LanesDataSource;
import dev.lanes.internal.reader.ReaderSet;
import dev.lanes.internal.reader.Reads;
import dev.lanes.internal.sql.RowStream;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.telemetry.ReadTelemetry;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.PathCopy;
import dev.lanes.internal.util.VarHandles;
import dev.lanes.internal.writer.LaneSetup;
import dev.lanes.internal.writer.SqliteWriterConnector;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterConnection;
import dev.lanes.internal.writer.WriterConnector;
import dev.lanes.internal.writer.WriterCounters;
import dev.lanes.internal.writer.WriterLane;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.sqlite.SQLiteConnection;

/**
 * A {@link Database} on a local SQLite file: the file's backend of {@link LaneDatabase}, which
 * turns calls into requests on its {@link WriterLane}. It reads through its {@link ReadRouting}
 * (on a reader, or on the lane while corked, so that they see the corked writes), admits the
 * writer's and the script's statements by {@link StatementPolicy#WRITER} and {@link
 * StatementPolicy#SCRIPT}, refuses every request once the file was found swapped, and owns the
 * file's parts: its guards ({@link DatabaseGuards}), its {@link IdleRelease}, and its close.
 *
 * <p>Metrics: every request is bracketed for the listener (see {@link
 * dev.lanes.MetricsListener#requestStarted}): writes, maintenance and transactions by the lane
 * when it makes their request, reads by {@link ReadRouting}; a refusal here before the lane saw
 * the request (a swapped file) is reported to the lane's bracket. The gauges are {@link
 * DatabaseGauges}.
 *
 * <p>Concurrency: every field is final and thread-safe but {@link #closeCalled}, a one-way
 * latch, and {@link #dataSource} and {@link #profiling}, made on first use (few of many
 * databases are used through JDBC or profiled) and set once by compare-and-set, so that every
 * caller gets the same one; they are thread-safe and their fields are final, so whoever reads
 * the volatile field sees them whole.
 */
public final class DatabaseImpl extends LaneDatabase {
    private final WriterLane lane;
    /** The reader set; the read path over it is made by the first read ({@link #routing()}). */
    private final ReaderSet readers;
    /** Lease, identity, checkpoint ownership and backups; see {@link DatabaseGuards}. */
    private final DatabaseGuards guards;
    private final IdleRelease idle;
    /** Null until the first {@link #profiled()}; see the class comment. */
    private volatile DatabaseProfiling profiling;
    /** Null until the first {@link #dataSource()}; see the class comment. */
    private volatile DataSource dataSource;
    /** Whether close or shutdownNow was called (a database dead by identity then reads CLOSED). */
    private volatile boolean closeCalled;

    private static final VarHandle PROFILING =
            VarHandles.field(MethodHandles.lookup(), "profiling", DatabaseProfiling.class);
    private static final VarHandle DATA_SOURCE =
            VarHandles.field(MethodHandles.lookup(), "dataSource", DataSource.class);

    DatabaseImpl(Path path, String name, DatabaseOptions options, LanesRuntime runtime,
            Lease lease) {
        this(path, name, options, runtime, lease, MetricsReporter.of(name, runtime.metrics()));
    }

    private DatabaseImpl(Path path, String name, DatabaseOptions options, LanesRuntime runtime,
            Lease lease, MetricsReporter metrics) {
        super(path, name, options, runtime, metrics);
        // one object answers the parts' callbacks, rather than one lambda each
        LaneEvents events = new LaneEvents();
        this.guards = new DatabaseGuards(path, name, options, lease, runtime.pool(), runtime,
                metrics, events);
        DiskReserve diskReserve = new DiskReserve(name, path, options.diskReserveBytes(),
                runtime.clock(), metrics);
        this.lane = new WriterLane(new LaneSetup(name, path, options, runtime.pool(),
                runtime.clock(), runtime.timer(), runtime.budget(), metrics, transactionListeners(),
                events, diskReserve, events, runtime.shapes()));
        attachLane(lane);
        this.readers = new ReaderSet(name, path, options, guards.identity(), metrics, events,
                runtime.budget(), runtime.pool(), runtime.timer(), runtime.clock());
        this.idle = new IdleRelease(options.idleRelease(), lane, readers);
        bindGauges(() -> new DatabaseGauges(lane, guards, readers, diskReserve,
                options.diskReserveBytes(), this::state));
    }

    /** The writer connection opened and was checked. */
    private void writerOpened(SQLiteConnection connection) {
        runtime().applyProcessLimits();
        idle.connectionOpened();
    }

    /**
     * What the lane tells the database, and the callbacks of its other parts: a swapped file
     * ({@link DatabaseGuards}: stop using the connections at once; queued work fails {@code
     * NOT_STARTED}), a reader connection opened ({@link Runnable}), and the lane's connector
     * ({@link WriterConnector}: a {@link SqliteWriterConnector} made per open, as it is
     * stateless but for its settings). It reads the database's final fields only when called, after the
     * constructor assigned them.
     */
    private final class LaneEvents implements LaneSetup.Events,
            Consumer<IdentityMismatchException>, Runnable, WriterConnector, Checkpointer.OnWriter {
        @Override
        public WriterConnection open(FaultInjector faults, WriterCounters counters)
                throws Exception {
            return new SqliteWriterConnector(name(), path(), options(), guards.identity(),
                    runtime().budget(), DatabaseImpl.this::writerOpened, runtime().shapes())
                    .open(faults, counters);
        }

        @Override
        public void accept(IdentityMismatchException mismatch) {
            closeAll(false);
        }

        @Override
        public void run() {
            idle.connectionOpened();
        }

        @Override
        public void used() {
            idle.used();
            guards.wrote(this);
        }

        /** The checkpointer's tail: a maintenance turn of the lane's own, queued behind writes. */
        @Override
        public CompletableFuture<CheckpointResult> run(SqlFunction<CheckpointResult> body) {
            return submitAsync(lane.backgroundMaintenance(body));
        }

        @Override
        public void closed() {
            idle.close();
            runtime().closed(path(), DatabaseImpl.this);
        }
    }

    /**
     * Where a read runs (a reader, or the lane while corked), with its telemetry: stateless but
     * for this database's parts and settings, made by the first read and kept by {@link
     * IdleRelease} until a release closes the connections (most of a large runtime's databases
     * are asleep and hold none).
     */
    ReadRouting routing() {
        ReadRouting r = idle.routing();
        if (r == null) {
            r = new ReadRouting(this, lane, reads(), idle,
                    new ReadTelemetry(name(), options().maxReadDuration(), guards.metrics()),
                    runtime().clock(), runtime().shapes());
            idle.awake(r);
        }
        return r;
    }

    /** The read path of this database on its reader set; stateless, so made when needed. */
    private Reads reads() {
        return Reads.on(readers, name(), path(), options(), lane::awaitReady, runtime().pool(),
                runtime().timer(), runtime().clock(), runtime().shapes());
    }

    /** The writer lane; public for white-box tests of the engine. Not API. */
    @Override
    public WriterLane lane() {
        return lane;
    }

    /** The idle release and eviction of this database, for white-box tests. */
    IdleRelease idleRelease() {
        return idle;
    }

    /** Installs a fault injector on the writer connection; for tests. Not API. */
    public void faults(FaultInjector injector) {
        lane.faults(injector);
    }

    /** Installs a fault injector on reader connections opened from now on; for tests. Not API. */
    public void readerFaults(FaultInjector injector) {
        readers.faults(injector);
    }

    // ------------------------------------------------------------------ hooks

    @Override
    protected StatementPolicy writerPolicy() {
        return StatementPolicy.WRITER;
    }

    @Override
    protected SqlFunction<int[]> batchWork(List<dev.lanes.Statement> batch) {
        return c -> Statements.batch(c, batch);
    }

    @Override
    protected StatementPolicy scriptPolicy() {
        return StatementPolicy.SCRIPT;
    }

    @Override
    protected SqlFunction<Integer> scriptWork(List<String> statements) {
        return c -> Statements.script(c, statements);
    }

    @Override
    protected Transaction userTransaction(Transaction laneTransaction) {
        return laneTransaction;
    }

    /** Refuses {@code r} once the file was found swapped, ending its metrics bracket. */
    @Override
    protected void admit(WriteRequest r) {
        try {
            guards.checkIdentity();
        } catch (LanesException e) {
            lane.refused(r, e);
            throw e;
        }
    }

    // ------------------------------------------------------------------ reads

    @Override
    protected List<Row> runQuery(ReadOptions options, String sql, Object[] bound) {
        return routing().query(options, sql, bound, null);
    }

    /**
     * A query; while corked, on the lane. With {@code span}, stamps when its statement ran (for a
     * profile of this very path).
     */
    List<Row> query(ReadOptions options, String sql, Object[] args, long[] span) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(sql, "sql");
        return routing().query(options, sql, args == null ? new Object[0] : args, span);
    }

    @Override
    protected long runStream(ReadOptions options, String sql, Object[] bound, Consumer<Row> each) {
        return routing().stream(options, sql, bound, new RowStream(each));
    }

    @Override
    protected <T> T runRead(ReadOptions options, SqlFunction<T> body) {
        return routing().read(options, body);
    }

    @Override
    protected <T> CompletableFuture<T> runReadAsync(ReadOptions options, SqlFunction<T> body) {
        return routing().readAsync(options, body);
    }

    @Override
    public Profiling profiled() {
        DatabaseProfiling p = profiling;
        return p != null ? p : VarHandles.getOrSet(PROFILING, this,
                () -> new DatabaseProfiling(this, runtime().clock()));
    }

    @Override
    public DataSource dataSource() {
        DataSource ds = dataSource;
        return ds != null ? ds
                : VarHandles.getOrSet(DATA_SOURCE, this, () -> new LanesDataSource(new DatabaseJdbc(this)));
    }

    // ------------------------------------------------------------------ the file

    @Override
    public CheckpointResult checkpoint() {
        return guards.checkpoint(this::maintenance);
    }

    @Override
    public void backup(Path target) {
        Objects.requireNonNull(target, "target");
        guards.backup(target, lane);
    }

    // ------------------------------------------------------------------ state

    @Override
    public DatabaseState state() {
        if (guards.identityFailure() != null && !closeCalled) {
            return DatabaseState.DEAD;
        }
        DatabaseState state = lane.state();
        // The lane may finish closing before the last read returned its reader, and the lease
        // is released only after every connection closed.
        return state == DatabaseState.CLOSED && (!readers.isClosed()
                || !guards.lease().isReleased()) ? DatabaseState.CLOSING : state;
    }

    @Override
    public CompletableFuture<Termination> whenTerminated() {
        return lane.whenTerminated().thenApply(t -> guards.identityFailure() == null ? t
                : new Termination(DatabaseState.DEAD, Optional.of(guards.identityFailure())));
    }

    @Override
    public DatabaseDiagnostics diagnostics() {
        WriterLane.View v = lane.view();
        return new DatabaseDiagnostics(path(), v.state(), guards.identityFailure() != null
                        ? Optional.of(guards.identityFailure().getMessage())
                        : Optional.ofNullable(v.deadCause()), v.writer(), readers.diagnostics(),
                guards.checkpointDiagnostics());
    }

    // ------------------------------------------------------------------ close

    @Override
    protected CompletableFuture<Void> startClose(boolean drain) {
        closeCalled = true;
        return closeAll(drain);
    }

    /**
     * Stops admission of reads, then of writes; completes when the lane closed and the reads in
     * flight returned their readers and every reader connection closed.
     */
    private CompletableFuture<Void> closeAll(boolean drain) {
        CompletableFuture<Void> readersClosed = reads().beginClose(drain);
        if (!drain) {
            readers.abortReads("the database was shut down");
        }
        // The lease goes last, once the checkpointer and backups let go too.
        return guards.afterClose(CompletableFuture.allOf(lane.beginClose(drain), readersClosed));
    }

    /**
     * The close passed its {@code closeTimeout} after {@code nanos}: the lane reports it, and
     * the reads still running are stopped inside SQLite (they fail with {@link
     * dev.lanes.ReadFailedException} saying the database closed) and the reads their users hold
     * between pages (JDBC result sets that stream) end, so that the close, which goes on in the
     * background, is not left waiting for a read that never ends or a user who never comes back;
     * a held read's next page fails with {@link dev.lanes.ClosedException}. Their readers close,
     * and the file's lease is released.
     */
    @Override
    public void closeTimedOut(long nanos) {
        lane.closeTimedOut(nanos);
        readers.abortReads("the database's close passed its closeTimeout ("
                + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms)");
    }

    /** Rethrows what a caller waited for; for the engine's own waits. */
    static LanesException rethrow(Throwable cause) {
        return Failures.asLanes(cause);
    }

    @Override
    public String toString() {
        return "Database[" + PathCopy.of(path()) + ", " + state() + "]";
    }
}

package dev.lanes.internal.engine;

import dev.lanes.internal.sql.BatchFailure;
import dev.lanes.internal.notify.ChangeNotifier;
import dev.lanes.internal.sqlite.FaultInjector;
import dev.lanes.internal.writer.InteractiveTransaction;
import dev.lanes.internal.file.Lease;
import dev.lanes.internal.telemetry.Profiler;
import dev.lanes.internal.reader.ReaderSet;
import dev.lanes.internal.reader.Reads;
import dev.lanes.internal.sql.Rows;
import dev.lanes.internal.sql.SqlText;
import dev.lanes.internal.util.Threads;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.writer.WriteRequest;
import dev.lanes.internal.writer.WriterLane;
import dev.lanes.Change;
import dev.lanes.CloseTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Subscription;
import dev.lanes.Transaction;
import dev.lanes.TransactionOptions;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOptions;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A {@link Database}: the public face of one database, turning calls into requests on its
 * {@link WriterLane}. Holds no state of its own beyond the lane and the options.
 */
public final class DatabaseImpl implements Database {

    private final Path path;
    private final DatabaseOptions options;
    private final WriterLane lane;
    private final Reads reads;
    private final ChangeNotifier changes;
    /** Lease, identity, checkpoint ownership and backups; see {@link DatabaseGuards}. */
    private final DatabaseGuards guards;
    /** Whether close or shutdownNow was called (a database dead by identity then reads CLOSED). */
    private volatile boolean closeCalled;

    DatabaseImpl(Path path, String name, DatabaseOptions options, WorkerPool pool,
            LanesRuntime runtime, Lease lease) {
        this.path = path;
        this.options = options;
        // A swapped file: stop using the connections at once; queued work fails NOT_STARTED.
        this.guards = new DatabaseGuards(path, name, options, lease, pool, runtime,
                mismatch -> closeAll(false));
        this.lane = new WriterLane(path, name, options, pool, runtime, guards.identity());
        this.reads = Reads.create(name, path, options, lane, runtime, pool);
        reads.readers().identity(guards.identity());
        this.changes = new ChangeNotifier(name, runtime.changeDispatcher());
        lane.commitObserver(changes);
        ReaderSet readers = reads.readers(); // the hook must not reach this object
        lane.idleReleaseHook(evict -> readers.releaseIdle());
        readers.onConnectionOpened(lane::connectionsOpened);
        try {
            runtime.metrics().databaseOpened(name, lane.gauges());
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(DatabaseImpl.class)
                    .warn("{}: the metrics listener failed to bind its gauges", name, e);
        }
        guards.start();
    }

    /** The writer lane, for tests that inject faults. Not API. */
    public WriterLane lane() {
        return lane;
    }

    /** Installs a fault injector on reader connections opened from now on; for tests. Not API. */
    public void readerFaults(FaultInjector injector) {
        reads.readers().faults(injector);
    }

    @Override
    public Path path() {
        return path;
    }

    DatabaseOptions options() {
        return options;
    }

    @Override
    public <T> T write(SqlFunction<T> body) {
        return write(WriteOptions.DEFAULTS, body);
    }

    @Override
    public <T> T write(WriteOptions options, SqlFunction<T> body) {
        return awaitSync(WriteRequest.body(requireOptions(options), requireBody(body)));
    }

    @Override
    public <T> CompletableFuture<T> writeAsync(SqlFunction<T> body) {
        return writeAsync(WriteOptions.DEFAULTS, body);
    }

    @Override
    public <T> CompletableFuture<T> writeAsync(WriteOptions options, SqlFunction<T> body) {
        WriteRequest r = WriteRequest.body(requireOptions(options), requireBody(body));
        guards.checkIdentity();
        lane.submit(r, false, false);
        @SuppressWarnings("unchecked")
        CompletableFuture<T> future = (CompletableFuture<T>) (CompletableFuture<?>) r.future;
        return future;
    }

    @Override
    public int execute(String sql, Object... args) {
        Objects.requireNonNull(sql, "sql");
        refuseTransactionControl(sql, "db.execute (use db.begin() for a multi-statement "
                + "transaction)");
        refuseSeveralStatements(sql, "db.execute (use executeScript for several)");
        Integer count = awaitSync(WriteRequest.statement(sql, args == null ? new Object[0] : args));
        return count;
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> statements) {
        Objects.requireNonNull(statements, "statements");
        List<dev.lanes.Statement> batch = List.copyOf(statements);
        for (int i = 0; i < batch.size(); i++) {
            refuseTransactionControl(batch.get(i).sql(), "statement " + i + " of the batch");
            refuseSeveralStatements(batch.get(i).sql(), "statement " + i + " of the batch");
        }
        return write(c -> {
            int[] counts = new int[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                dev.lanes.Statement st = batch.get(i);
                try (PreparedStatement s = c.prepareStatement(st.sql())) {
                    Rows.bind(s, st.args().toArray());
                    long before = totalChanges(c);
                    int count = s.executeUpdate();
                    // sqlite3_changes() keeps the previous statement's count across a statement
                    // that changes no rows (DDL, PRAGMA)
                    counts[i] = totalChanges(c) == before ? 0 : count;
                } catch (Exception e) {
                    throw new BatchFailure(i, st.sql(), e);
                }
            }
            return counts;
        });
    }

    @Override
    public int executeScript(String sql) {
        Objects.requireNonNull(sql, "sql");
        List<String> statements = SqlText.split(sql);
        for (int i = 0; i < statements.size(); i++) {
            refuseTransactionControl(statements.get(i), "statement " + i + " of the script");
        }
        return write(c -> {
            try (java.sql.Statement s = c.createStatement()) {
                for (int i = 0; i < statements.size(); i++) {
                    try {
                        s.execute(statements.get(i));
                    } catch (Exception e) {
                        throw new BatchFailure(i, statements.get(i), e);
                    }
                }
            }
            return statements.size();
        });
    }

    private static long totalChanges(java.sql.Connection c) throws java.sql.SQLException {
        return c.unwrap(org.sqlite.SQLiteConnection.class).getDatabase().total_changes();
    }

    /**
     * The driver compiles only the first statement of a text and silently drops the rest, so a
     * text holding several is refused before anything runs rather than half run.
     */
    private void refuseSeveralStatements(String sql, String where) {
        if (sql.indexOf(';') >= 0 && SqlText.split(sql).size() > 1) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, lane.name() + ": " + where
                    + " holds more than one statement; nothing ran", null);
        }
    }

    private void refuseTransactionControl(String sql, String where) {
        String keyword = SqlText.transactionControl(sql);
        if (keyword != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, lane.name()
                    + ": transaction control (" + keyword + ") in " + where + " is refused: the "
                    + "lane owns the transaction; nothing ran", null);
        }
    }

    @Override
    public List<Row> query(String sql, Object... args) {
        return query(ReadOptions.DEFAULTS, sql, args);
    }

    @Override
    public List<Row> query(ReadOptions options, String sql, Object... args) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(sql, "sql");
        lane.touch();
        long started = System.nanoTime();
        try {
            List<Row> rows = reads.query(options, sql, args == null ? new Object[0] : args);
            lane.readFinished(sql, System.nanoTime() - started, null);
            return rows;
        } catch (RuntimeException e) {
            lane.readFinished(sql, System.nanoTime() - started, e);
            throw e;
        }
    }

    @Override
    public <T> T read(SqlFunction<T> body) {
        return read(ReadOptions.DEFAULTS, body);
    }

    @Override
    public <T> T read(ReadOptions options, SqlFunction<T> body) {
        Objects.requireNonNull(options, "options");
        lane.touch();
        long started = System.nanoTime();
        try {
            T value = reads.read(options, requireBody(body));
            lane.readFinished(null, System.nanoTime() - started, null);
            return value;
        } catch (RuntimeException e) {
            lane.readFinished(null, System.nanoTime() - started, e);
            throw e;
        }
    }

    @Override
    public <T> CompletableFuture<T> readAsync(SqlFunction<T> body) {
        return readAsync(ReadOptions.DEFAULTS, body);
    }

    @Override
    public <T> CompletableFuture<T> readAsync(ReadOptions options, SqlFunction<T> body) {
        Objects.requireNonNull(options, "options");
        lane.touch();
        long started = System.nanoTime();
        CompletableFuture<T> future = reads.readAsync(options, requireBody(body));
        future.whenComplete((v, e) -> lane.readFinished(null, System.nanoTime() - started,
                e instanceof java.util.concurrent.CompletionException ? e.getCause() : e));
        return future;
    }

    @Override
    public Subscription onChange(Consumer<Change> listener) {
        return changes.subscribe(listener);
    }

    @Override
    public long changeVersion() {
        return changes.version();
    }

    @Override
    public <T> T maintenance(SqlFunction<T> body) {
        return awaitSync(WriteRequest.topLevel(requireBody(body)));
    }

    private <T> T awaitSync(WriteRequest r) {
        guards.checkIdentity();
        boolean platform = !Threads.currentIsVirtual();
        if (platform) {
            r.wake = new CompletableFuture<>();
            r.waiter = Thread.currentThread();
        }
        lane.submit(r, platform, true);
        return lane.awaitLeading(r);
    }

    /** Waits for a request's outcome, uninterruptibly: an accepted write may still commit. */
    public static <T> T await(WriteRequest r) {
        try {
            @SuppressWarnings("unchecked")
            T value = (T) r.future.join();
            return value;
        } catch (CompletionException e) {
            throw rethrow(e.getCause());
        }
    }

    @Override
    public Transaction begin() {
        return begin(TransactionOptions.DEFAULTS);
    }

    @Override
    public Transaction begin(TransactionOptions options) {
        Objects.requireNonNull(options, "options");
        InteractiveTransaction tx = new InteractiveTransaction(lane,
                lane.name(), options, this.options.transactionIdleTimeout());
        return awaitSync(WriteRequest.txBegin(tx, options.admission()));
    }

    @Override
    public void cork() {
        lane.cork(!Threads.currentIsVirtual());
    }

    @Override
    public void uncork() {
        WriteRequest r = lane.uncork();
        if (r != null) {
            await(r);
        }
    }

    /** The failure of a request, as thrown to the caller that waited for it. */
    public static LanesException rethrow(Throwable cause) {
        if (cause instanceof LanesException) {
            return (LanesException) cause;
        }
        // Outcomes are always recorded as LanesException; anything else is a defect.
        return new WriteFailedException(WriteOutcome.UNKNOWN, "unexpected failure: " + cause, cause);
    }

    private static WriteOptions requireOptions(WriteOptions options) {
        return Objects.requireNonNull(options, "options");
    }

    private static <T> SqlFunction<T> requireBody(SqlFunction<T> body) {
        return Objects.requireNonNull(body, "body");
    }

    @Override
    public <T> dev.lanes.Profiled<T> writeProfiled(WriteOptions options, SqlFunction<T> body) {
        requireBody(body);
        Profiler profiler = new Profiler();
        long[] span = new long[2];
        long called = System.nanoTime();
        T value = write(options, c -> profiled(profiler, span, c, body));
        return new dev.lanes.Profiled<>(value, profiler.profile(span[0] - called, span[1] - span[0]));
    }

    @Override
    public dev.lanes.Profiled<Integer> executeProfiled(WriteOptions options, String sql,
            Object... args) {
        Objects.requireNonNull(sql, "sql");
        refuseTransactionControl(sql, "db.executeProfiled");
        refuseSeveralStatements(sql, "db.executeProfiled");
        Object[] bound = args == null ? new Object[0] : args;
        return writeProfiled(options, c -> {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                Rows.bind(s, bound);
                long before = totalChanges(c);
                int count = s.executeUpdate();
                return totalChanges(c) == before ? 0 : count;
            }
        });
    }

    @Override
    public <T> dev.lanes.Profiled<T> readProfiled(ReadOptions options, SqlFunction<T> body) {
        requireBody(body);
        Profiler profiler = new Profiler();
        long[] span = new long[2];
        long called = System.nanoTime();
        T value = read(options, c -> profiled(profiler, span, c, body));
        return new dev.lanes.Profiled<>(value, profiler.profile(span[0] - called, span[1] - span[0]));
    }

    @Override
    public dev.lanes.Profiled<List<Row>> queryProfiled(ReadOptions options, String sql,
            Object... args) {
        Objects.requireNonNull(sql, "sql");
        Object[] bound = args == null ? new Object[0] : args;
        dev.lanes.Profiled<List<Row>> result = readProfiled(options, c -> {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                Rows.bind(s, bound);
                try (ResultSet rs = s.executeQuery()) {
                    return Rows.read(rs);
                }
            }
        });
        if (result.profile().resultBytes() > this.options.maxResultBytes()) {
            throw new dev.lanes.ResultTooLargeException(lane.name() + ": the result of " + sql
                    + " holds " + result.profile().resultBytes() + " bytes, past maxResultBytes "
                    + this.options.maxResultBytes());
        }
        return result;
    }

    /** Runs a body on a counting connection, stamping when it started and ended. */
    private static <T> T profiled(Profiler profiler, long[] span, java.sql.Connection c,
            SqlFunction<T> body) throws Exception {
        profiler.reset(); // a replayed body counts its last run only
        span[0] = System.nanoTime();
        try {
            return body.apply(profiler.wrap(c));
        } finally {
            span[1] = System.nanoTime();
        }
    }

    @Override
    public DatabaseState state() {
        if (guards.identityFailure() != null && !closeCalled) {
            return DatabaseState.DEAD;
        }
        DatabaseState state = lane.state();
        // The lane may finish closing before the last read returned its reader, and the lease
        // is released only after every connection closed.
        return state == DatabaseState.CLOSED && (!reads.readers().isClosed()
                || !guards.lease().released().isDone()) ? DatabaseState.CLOSING : state;
    }

    @Override
    public dev.lanes.CheckpointResult checkpoint() {
        return guards.checkpoint(this::maintenance);
    }

    @Override
    public void backup(Path target) {
        Objects.requireNonNull(target, "target");
        guards.backup(target, lane);
    }

    @Override
    public CompletableFuture<Database> awaitReady() {
        return lane.awaitReady().thenApply(v -> this);
    }

    @Override
    public CompletableFuture<dev.lanes.Termination> whenTerminated() {
        return lane.whenTerminated().thenApply(t -> guards.identityFailure() == null ? t
                : new dev.lanes.Termination(DatabaseState.DEAD,
                        Optional.of(guards.identityFailure())));
    }

    @Override
    public Subscription onTransactionStateChange(java.util.function.Consumer<Boolean> listener) {
        return lane.onTransactionStateChange(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public boolean transactionOpen() {
        return lane.transactionOpen();
    }

    @Override
    public DatabaseDiagnostics diagnostics() {
        WriterLane.View v = lane.view();
        return new DatabaseDiagnostics(path, v.state(), v.poisonCause() != null,
                Optional.ofNullable(v.poisonCause()), guards.identityFailure() != null
                        ? Optional.of(guards.identityFailure().getMessage())
                        : Optional.ofNullable(v.deadCause()),
                v.queued(), v.capacity(), v.committed(), v.failed(), v.groups(), v.overloads(),
                v.replays(), v.background(), v.writer(), Optional.ofNullable(v.transaction()),
                v.corked(), Optional.ofNullable(v.lastWrite()), reads.readers().diagnostics(),
                guards.checkpointDiagnostics());
    }

    @Override
    public void setBackground(boolean background) {
        lane.background(background);
    }

    @Override
    public void close() {
        closeCalled = true;
        awaitClose(closeAll(true));
    }

    @Override
    public void shutdownNow() {
        closeCalled = true;
        awaitClose(closeAll(false));
    }

    /** Starts closing without waiting; for the runtime, which waits for all of them at once. */
    CompletableFuture<Void> beginClose() {
        closeCalled = true;
        return closeAll(true);
    }

    /**
     * Stops admission of reads, then of writes; completes when the lane closed and the reads in
     * flight returned their readers and every reader connection closed.
     */
    private CompletableFuture<Void> closeAll(boolean drain) {
        CompletableFuture<Void> readersClosed = reads.beginClose(drain);
        // The lease goes last, once the checkpointer and backups let go too.
        return guards.afterClose(CompletableFuture.allOf(lane.beginClose(drain), readersClosed));
    }

    private void awaitClose(CompletableFuture<Void> closed) {
        long timeout = options.closeTimeout().toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    closed.get(timeout, TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // keep waiting; the close is under way either way
                } catch (ExecutionException e) {
                    throw rethrow(e.getCause());
                } catch (TimeoutException e) {
                    lane.closeTimedOut(timeout);
                    throw new CloseTimeoutException(lane.name() + ": close did not finish "
                            + "within " + options.closeTimeout().toMillis() + " ms ("
                            + lane.view().queued() + " writes still queued); it goes on in the "
                            + "background");
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "Database[" + path + ", " + state() + "]";
    }
}

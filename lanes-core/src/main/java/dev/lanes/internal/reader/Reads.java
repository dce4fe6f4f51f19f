package dev.lanes.internal.reader;

import dev.lanes.CancelledException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.Failures;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.Threads;
import dev.lanes.internal.util.Timer;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one database's reads on its {@link ReaderSet}: decides which thread runs SQLite, bounds
 * the read by its deadline, stops it when cancelled, and turns what happened into one outcome.
 *
 * <h2>Who runs SQLite</h2>
 * SQLite runs only on platform threads (a native call pins a virtual thread's carrier). A
 * platform-thread caller of a synchronous read waits for admission and runs the read on its own
 * thread with the checked-out connection: no hop, so a lone point read costs about what plain
 * JDBC costs. A virtual-thread caller waits for admission where it is (parking, not pinning),
 * then hands the read to the runtime's {@link WorkerPool} and parks until it is done. An
 * asynchronous read waits for admission without any thread (see {@link ReaderSet}) and runs on
 * the pool once admitted. A read never waits for the writer: readers are separate connections
 * on a WAL database. A read on the pool holds its pool thread for as long as its body runs (the
 * pool's "returns promptly" holds only as far as the body does); admission bounds that to
 * {@code readers} threads per database.
 *
 * <h2>One snapshot</h2>
 * A body runs inside {@code BEGIN} (deferred) … {@code COMMIT}, so all its statements see the
 * snapshot taken at its first statement. A query is one statement, which is its own snapshot in
 * SQLite's autocommit mode, so it runs without the pair.
 *
 * <h2>Stopping</h2>
 * Every reader connection has a progress handler that aborts the running statement once the
 * lease is cancelled or past its deadline; a cancellation also calls {@code sqlite3_interrupt},
 * guarded against a concurrent close (see {@link ReaderConnection}). The read then fails with
 * {@link CancelledException} or {@link DeadlineExceededException}, and the connection is rolled
 * back, verified and reused, or closed and replaced when it cannot be verified. A close of the
 * database that does not wait for reads (a shutdown, or a close past its timeout) stops them
 * as a deadline does ({@link ReaderSet#abortReads}); they fail with {@link
 * ReadFailedException} saying the database closed, and their connections close.
 *
 * <h2>Concurrency</h2>
 * Holds no mutable state (whether the file was seen to be a WAL database is a latch of the set's
 * {@link ReaderSet#walReady}), so a database makes one on its {@link ReaderSet} when it wakes
 * and lets it go when it sleeps. A read's own objects ({@link
 * ReadTask}, {@link AsyncRead}) hand their state between the caller, the pool thread and a
 * canceller through volatile fields; their comments say how.
 */
public final class Reads {
    private static final Logger log = LoggerFactory.getLogger(LogNames.READS);

    private final String name;
    private final Path path;
    /** The writer's readiness; asking for it opens the writer if nobody has yet. */
    private final java.util.function.Supplier<CompletableFuture<Void>> writerReadiness;
    private final ReaderSet readers;
    private final WorkerPool pool;
    private final Timer timer;
    private final Clock clock;
    private final long maxResultBytes;
    private final Duration busyTimeout;
    private final Shapes shapes;

    Reads(String name, Path path, java.util.function.Supplier<CompletableFuture<Void>> writerReady,
            ReaderSet readers, WorkerPool pool, Timer timer, Clock clock, long maxResultBytes,
            Duration busyTimeout, Shapes shapes) {
        this.shapes = shapes;
        this.name = name;
        this.path = path;
        this.writerReadiness = writerReady;
        this.readers = readers;
        this.pool = pool;
        this.timer = timer;
        this.clock = clock;
        this.maxResultBytes = maxResultBytes;
        this.busyTimeout = busyTimeout;
    }

    /** The read path of one database on its {@code readers}; cheap, made when it wakes. */
    public static Reads on(ReaderSet readers, String name, Path path,
            dev.lanes.DatabaseOptions options,
            java.util.function.Supplier<CompletableFuture<Void>> writerReady, WorkerPool pool,
            Timer timer, Clock clock, Shapes shapes) {
        return new Reads(name, path, writerReady, readers, pool, timer, clock,
                options.maxResultBytes(), options.busyTimeout(), shapes);
    }

    public ReaderSet readers() {
        return readers;
    }

    String name() {
        return name;
    }

    /** The runtime's statement shapes, for the SQL a read body runs. */
    Shapes shapes() {
        return shapes;
    }

    WorkerPool pool() {
        return pool;
    }

    Clock clock() {
        return clock;
    }

    long maxResultBytes() {
        return maxResultBytes;
    }

    /** Stops admitting reads; completes when every reader connection is closed. */
    public CompletableFuture<Void> beginClose(boolean drain) {
        return readers.beginClose(drain);
    }

    // ------------------------------------------------------------------ entry points

    public <T> T read(ReadOptions options, SqlFunction<T> body) {
        return run(ReadLimits.of(options, clock), new ReadWork.Body<>(name, body, shapes));
    }

    /** A query its caller admitted as a read ({@code StatementPolicy.READER}). */
    public List<Row> query(ReadOptions options, String sql, Object[] args) {
        return run(ReadLimits.of(options, clock), new ReadWork.Query(sql, args, null,
                maxResultBytes, name, clock));
    }

    /**
     * {@link #query}, with the columns' metadata, for a JDBC result set: its first page; when
     * rows remain, the reader stays held for them and {@code paging} gets the rest (see {@link
     * PagedRead}), and {@code ended} (when not null) is told how long it held the reader
     * once that ends.
     */
    public ResultData queryPaged(ReadOptions options, String sql, Object[] args, Paging paging,
            java.util.function.LongConsumer ended) {
        return run(ReadLimits.of(options, clock), new PagedRead(this, sql, args, paging, ended));
    }

    /**
     * {@link #query}, stamping on {@code span} when its statement started ({@code span[0]}) and
     * ended ({@code span[1]}) on the reader; for profiles, which measure this very path.
     */
    public List<Row> query(ReadOptions options, String sql, Object[] args, long[] span) {
        return run(ReadLimits.of(options, clock), new ReadWork.Query(sql, args, span,
                maxResultBytes, name, clock));
    }

    /** Streams a query's rows to {@code each} (a {@link dev.lanes.internal.sql.RowStream}). */
    public long stream(ReadOptions options, String sql, Object[] args, Consumer<Row> each) {
        return run(ReadLimits.of(options, clock), new StreamWork(sql, args, each));
    }

    public <T> CompletableFuture<T> readAsync(ReadOptions options, SqlFunction<T> body) {
        return readAsync(options, body, null);
    }

    /** Told how an asynchronous read ended, once, before its future completes with it. */
    public interface Outcome {
        /**
         * @param failure what its caller gets when it failed (a {@link LanesException}, or the
         *     caller's own cancellation), or null when it succeeded
         */
        void ended(Throwable failure);
    }

    /**
     * {@link #readAsync(ReadOptions, SqlFunction)}, telling {@code outcome} (when not null) how
     * the read ended before its future completes; when the caller completes the future itself
     * (a cancellation), right after. A read refused at once throws, and tells nothing.
     */
    public <T> CompletableFuture<T> readAsync(ReadOptions options, SqlFunction<T> body,
            Outcome outcome) {
        ReadLimits limits = ReadLimits.of(options, clock);
        AsyncRead<T> read = new AsyncRead<>(new ReadWork.Body<>(name, body, shapes), limits,
                outcome);
        CompletableFuture<Void> writerReady = writerReady();
        if (writerReady == null) {
            read.start();
        } else {
            writerReady.whenComplete((v, e) -> {
                if (e != null) {
                    read.future.fail(Failures.asLanes(e));
                } else {
                    try {
                        read.start();
                    } catch (LanesException refused) {
                        read.future.fail(refused);
                    }
                }
            });
        }
        return read.future;
    }

    /**
     * Opens a snapshot held across calls: a reader checked out until the snapshot closes, whose
     * statements all see one committed state (a JDBC read-only transaction).
     */
    public ReadSnapshot snapshot(ReadOptions options) {
        awaitWriter();
        ReadLimits limits = ReadLimits.of(options, clock);
        return ReadSnapshot.open(this, readers, pool, readers.acquire(limits.hasDeadline,
                limits.deadline), name, maxResultBytes);
    }

    private void awaitWriter() {
        CompletableFuture<Void> writerReady = writerReady();
        if (writerReady != null) {
            try {
                writerReady.join();
            } catch (CompletionException e) {
                throw Failures.rethrown(e.getCause());
            }
        }
    }

    private <T> T run(ReadLimits limits, ReadWork<T> work) {
        awaitWriter();
        Lease lease = readers.acquire(limits.hasDeadline, limits.deadline);
        if (!Threads.currentIsVirtual()) {
            return runLeased(lease, work, limits, null);
        }
        ReadTask<T> task = new ReadTask<>(lease, work, limits, new ReadFuture<>(name));
        pool.submit(task);
        return task.await();
    }

    /**
     * Readers open read-only, so the file must be a WAL database first: when it is one already,
     * reads go ahead without the writer, which opens with the first write (a tenant read after a
     * restart costs one connection, not two); else the writer creates or converts it, and the
     * read waits for that. Returns null when reads may go ahead, else the writer's readiness to
     * wait for.
     *
     * <p>Nothing else the writer's open does is needed before a read: the reader checks the
     * file's identity itself, and a database with an initializer was opened (the initializer
     * run) before {@code open} returned it.
     */
    private CompletableFuture<Void> writerReady() {
        if (readers.walReady()) {
            return null;
        }
        if (SqliteConnections.isWalDatabase(path)) {
            // Also when the writer is finishing its first turn: that turn may be a write body
            // reading through this very call, so it must not be waited for.
            readers.markWalReady();
            return null;
        }
        CompletableFuture<Void> opened = writerReadiness.get(); // opens the writer if needed
        if (opened.isDone() && !opened.isCompletedExceptionally()) {
            readers.markWalReady();
            return null;
        }
        return opened; // not yet made a WAL database, or dead or closed: the caller reports why
    }

    // ------------------------------------------------------------------ running

    /**
     * Runs a read on this platform thread with a leased reader, and returns the lease whatever
     * happens.
     *
     * @param task the pool task running it, told when the connection is live; null on the
     *     caller's own thread
     */
    private <T> T runLeased(Lease lease, ReadWork<T> work, ReadLimits limits, ReadTask<?> task) {
        if (limits.hasDeadline && clock.nanoTime() - limits.deadline >= 0) {
            readers.stats.deadlineExceeded(); // counted before the reader is free for the next read
            readers.release(lease, true);
            throw new DeadlineExceededException(WriteOutcome.NOT_STARTED, name + ": the read's "
                    + limits.timeoutMillis() + " ms deadline passed before it could start; it "
                    + "never ran", null);
        }
        ReaderConnection c;
        try {
            c = readers.connect(lease);
        } catch (LanesException e) {
            readers.release(lease, true);
            throw e;
        }
        long token = c.startLease(limits.hasDeadline, limits.deadline, task != null);
        if (task != null) {
            task.started(c, token);
        }
        T value = null;
        Throwable failure = null;
        boolean began = false;
        try {
            if (work.transactional()) {
                c.begin();
                began = true;
            }
            value = work.run(c, work.checksStop() ? () -> checkStop(c, limits) : null);
        } catch (Throwable t) {
            failure = t;
        }
        if (failure == null && work.keep(lease, token, limits)) {
            return value; // the work holds the reader on and ends the lease itself
        }
        return end(lease, c, began, value, failure, limits);
    }

    /**
     * Ends a lease after its work: disarms the stop, counts why it stopped, makes the connection
     * clean (rolled back after a failure, committed after a transaction), returns the lease and
     * gives the read's outcome.
     */
    <T> T end(Lease lease, ReaderConnection c, boolean began, T value, Throwable failure,
            ReadLimits limits) {
        int stop = c.endLease();
        // counted before the reader is free: whoever reads next sees this read's stop
        if (stop == ReaderConnection.CANCELLED) {
            readers.stats.cancelled();
        } else if (stop == ReaderConnection.DEADLINE) {
            readers.stats.deadlineExceeded();
        }
        boolean reusable;
        if (failure != null) {
            reusable = c.rollbackVerified();
        } else if (began) {
            reusable = commitClean(c);
        } else {
            reusable = true; // a query: its statement was reset, so SQLite left the snapshot
        }
        readers.release(lease, reusable);
        if (!reusable) {
            log.warn("{}: a reader was left dirty (an open transaction or a statement still "
                    + "holding its snapshot) and could not be verified clean; it was closed and "
                    + "will be replaced", name);
        }
        return outcome(stop, value, failure, limits);
    }

    /** Ends a body's transaction; whether the connection is clean afterwards. */
    boolean commitClean(ReaderConnection c) {
        try {
            c.commit();
        } catch (SQLException e) {
            // The body read everything it returned inside its snapshot; the connection is the
            // only thing in doubt.
            log.warn("{}: COMMIT after a read failed ({}); checking the reader", name,
                    e.getMessage());
            return c.rollbackVerified();
        }
        return !c.strayStatements();
    }

    <T> T outcome(int stop, T value, Throwable failure, ReadLimits limits) {
        if (stop == ReaderConnection.CANCELLED) {
            throw new CancelledException(WriteOutcome.ROLLED_BACK, name + ": the read was "
                    + "cancelled and stopped; it wrote nothing", failure);
        }
        if (stop == ReaderConnection.DEADLINE) {
            throw new DeadlineExceededException(WriteOutcome.ROLLED_BACK, name + ": the read ran "
                    + "past its " + limits.timeoutMillis() + " ms deadline and was stopped; it "
                    + "wrote nothing", failure);
        }
        if (stop == ReaderConnection.CLOSED) {
            throw ReadFailures.closed(name, readers.closedBecause(), failure);
        }
        if (failure != null) {
            throw failureOf(failure);
        }
        return value;
    }

    /** For the guard, before each statement: fails a read that must stop. */
    private void checkStop(ReaderConnection c, ReadLimits limits) {
        ReadFailures.checkStop(name, c, limits, readers);
    }

    LanesException failureOf(Throwable t) {
        return ReadFailures.of(name, busyTimeout, readers, t);
    }

    // ------------------------------------------------------------------ pool hand-off

    /**
     * One admitted read handed to the pool. Hand-off with a canceller: the pool thread publishes
     * the live connection in {@link #running} and then reads {@link #cancelled}; the canceller
     * sets {@code cancelled} and then reads {@code running}. Both are volatile, so at least one
     * of them sees the other and the stop is delivered.
     */
    private final class ReadTask<T> implements WorkerPool.Task {
        private final Lease lease;
        private final ReadWork<T> work;
        private final ReadLimits limits;
        final ReadFuture<T> future;
        private volatile boolean cancelled;
        private volatile ReaderConnection running;
        private long token;

        ReadTask(Lease lease, ReadWork<T> work, ReadLimits limits, ReadFuture<T> future) {
            this.lease = lease;
            this.work = work;
            this.limits = limits;
            this.future = future;
        }

        @Override
        public void runTurn() {
            if (cancelled || future.isDone()) {
                readers.stats.cancelled(); // counted before the reader is free for the next read
                readers.release(lease, true); // its connection was never touched
                future.fail(notStarted()); // a no-op when cancel() told the caller already
                return;
            }
            T value = null;
            LanesException failure = null;
            try {
                value = runLeased(lease, work, limits, this);
            } catch (LanesException e) {
                failure = e;
            } catch (Throwable t) {
                failure = new ReadFailedException(WriteOutcome.ROLLED_BACK, name + ": the read "
                        + "failed: " + t, t);
            }
            running = null;
            // After the lease went back, so callbacks chained on the future never hold a reader.
            if (failure != null) {
                future.fail(failure);
            } else {
                future.succeed(value);
            }
        }

        void started(ReaderConnection c, long leaseToken) {
            token = leaseToken;
            running = c;
            if (cancelled) {
                c.stop(leaseToken, ReaderConnection.CANCELLED);
            }
        }

        private CancelledException notStarted() {
            return new CancelledException(WriteOutcome.NOT_STARTED, name + ": the read was "
                    + "cancelled before it started; it never ran", null);
        }

        /** Stops the read from any thread; a virtual thread leaves the native call to the timer. */
        void cancel() {
            cancelled = true;
            ReaderConnection c = running;
            if (c == null) {
                // Not started: the caller learns it now rather than when a pool thread is free
                // (the pool may be busy for long); the task returns the reader at its turn.
                future.fail(notStarted());
                return;
            }
            long t = token;
            if (!Threads.currentIsVirtual()) {
                c.stop(t, ReaderConnection.CANCELLED);
                return;
            }
            // No native call on a virtual thread: raise the flag the progress handler polls now,
            // and leave sqlite3_interrupt (for a statement stuck in one long step) to the timer.
            c.flagStop(t, ReaderConnection.CANCELLED);
            try {
                timer.execute(() -> c.stop(t, ReaderConnection.CANCELLED));
            } catch (RejectedExecutionException e) {
                // the runtime is shutting down; the flag alone stops the read
            }
        }

        /**
         * Waits for the result on a virtual thread. An interrupt stops the read; its outcome is
         * then {@link CancelledException} unless it had finished, and the interrupt stays set.
         */
        T await() {
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        return future.get();
                    } catch (InterruptedException e) {
                        interrupted = true;
                        cancel();
                    } catch (ExecutionException e) {
                        throw Failures.rethrown(e.getCause());
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public boolean background() {
            return false;
        }
    }

    /**
     * An asynchronous read from the call to its admission. The waiter and the task are published
     * through volatile fields so that a cancellation finds whichever exists; a grant that arrives
     * after the future completed returns the lease untouched.
     */
    private final class AsyncRead<T> implements AsyncAdmission {
        final ReadFuture<T> future;
        private final ReadWork<T> work;
        private final ReadLimits limits;
        private volatile Waiter waiter;
        private volatile ReadTask<T> task;

        AsyncRead(ReadWork<T> work, ReadLimits limits, Outcome outcome) {
            this.future = new ReadFuture<>(name, outcome);
            this.work = work;
            this.limits = limits;
            future.onExternalCompletion(this::cancel);
        }

        /** Asks for admission; throws when the database refuses reads now. */
        void start() {
            waiter = readers.acquireAsync(limits.hasDeadline, limits.deadline, this);
        }

        @Override
        public void granted(Lease lease) {
            if (future.isDone()) {
                readers.release(lease, true); // cancelled while waiting; nothing touched it
                return;
            }
            ReadTask<T> t = new ReadTask<>(lease, work, limits, future);
            task = t;
            pool.submit(t); // cancelled meanwhile, the task returns the lease at once
        }

        @Override
        public void refused(LanesException failure) {
            future.fail(failure);
        }

        private void cancel() {
            Waiter w = waiter;
            if (w != null) {
                readers.cancelWaiting(w);
            }
            ReadTask<T> t = task;
            if (t != null) {
                t.cancel();
            }
        }
    }
}

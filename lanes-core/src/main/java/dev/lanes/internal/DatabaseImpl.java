package dev.lanes.internal;

import dev.lanes.CloseTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
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

/**
 * A {@link Database}: the public face of one database, turning calls into requests on its
 * {@link WriterLane}. Holds no state of its own beyond the lane and the options.
 */
public final class DatabaseImpl implements Database {
    private final Path path;
    private final DatabaseOptions options;
    private final WriterLane lane;

    DatabaseImpl(Path path, DatabaseOptions options, WorkerPool pool, LanesRuntime runtime) {
        this.path = path;
        this.options = options;
        this.lane = new WriterLane(path, options, pool, runtime);
    }

    /** The writer lane, for tests that inject faults. Not API. */
    public WriterLane lane() {
        return lane;
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
        Integer count = awaitSync(WriteRequest.statement(sql, args == null ? new Object[0] : args));
        return count;
    }

    @Override
    public int[] executeBatch(List<dev.lanes.Statement> statements) {
        Objects.requireNonNull(statements, "statements");
        List<dev.lanes.Statement> batch = List.copyOf(statements);
        for (int i = 0; i < batch.size(); i++) {
            refuseTransactionControl(batch.get(i).sql(), "statement " + i + " of the batch");
        }
        return write(c -> {
            int[] counts = new int[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                dev.lanes.Statement st = batch.get(i);
                try (PreparedStatement s = c.prepareStatement(st.sql())) {
                    Rows.bind(s, st.args().toArray());
                    counts[i] = s.executeUpdate();
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

    private void refuseTransactionControl(String sql, String where) {
        String keyword = SqlText.transactionControl(sql);
        if (keyword != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, path.getFileName()
                    + ": transaction control (" + keyword + ") in " + where + " is refused: the "
                    + "lane owns the transaction; nothing ran", null);
        }
    }

    @Override
    public List<Row> query(String sql, Object... args) {
        Objects.requireNonNull(sql, "sql");
        Object[] bound = args == null ? new Object[0] : args;
        return read(c -> {
            try (PreparedStatement s = c.prepareStatement(sql)) {
                Rows.bind(s, bound);
                try (ResultSet rs = s.executeQuery()) {
                    return Rows.read(rs);
                }
            }
        });
    }

    @Override
    public <T> T read(SqlFunction<T> body) {
        // Until the reader sets land, reads run on the writer lane like a write that changes
        // nothing.
        return write(body);
    }

    @Override
    public <T> CompletableFuture<T> readAsync(SqlFunction<T> body) {
        return writeAsync(body);
    }

    @Override
    public <T> T maintenance(SqlFunction<T> body) {
        return awaitSync(WriteRequest.topLevel(requireBody(body)));
    }

    private <T> T awaitSync(WriteRequest r) {
        lane.submit(r, !Threads.currentIsVirtual(), true);
        return await(r);
    }

    /** Waits for a request's outcome, uninterruptibly: an accepted write may still commit. */
    static <T> T await(WriteRequest r) {
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
                String.valueOf(path.getFileName()), options, this.options.transactionIdleTimeout());
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
    static LanesException rethrow(Throwable cause) {
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
    public DatabaseState state() {
        return lane.state();
    }

    @Override
    public CompletableFuture<Database> awaitReady() {
        return lane.awaitReady().thenApply(v -> this);
    }

    @Override
    public CompletableFuture<dev.lanes.Termination> whenTerminated() {
        return lane.whenTerminated().thenApply(t -> t);
    }

    @Override
    public boolean transactionOpen() {
        return lane.transactionOpen();
    }

    @Override
    public DatabaseDiagnostics diagnostics() {
        WriterLane.View v = lane.view();
        return new DatabaseDiagnostics(path, v.state(), v.poisonCause() != null,
                Optional.ofNullable(v.poisonCause()), Optional.ofNullable(v.deadCause()),
                v.queued(), v.capacity(), v.committed(), v.failed(), v.groups(), v.overloads(),
                v.replays(), v.background(), v.writer(), Optional.ofNullable(v.transaction()),
                v.corked());
    }

    @Override
    public void setBackground(boolean background) {
        lane.background(background);
    }

    @Override
    public void close() {
        awaitClose(lane.beginClose(true));
    }

    @Override
    public void shutdownNow() {
        awaitClose(lane.beginClose(false));
    }

    /** Starts closing without waiting; for the runtime, which waits for all of them at once. */
    CompletableFuture<Void> beginClose() {
        return lane.beginClose(true);
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
                    throw new CloseTimeoutException(path.getFileName() + ": close did not finish "
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

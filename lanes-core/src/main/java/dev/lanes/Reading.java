package dev.lanes;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The reads of a database: the {@linkplain Queries query forms}, a stream and read bodies, all
 * run on the database's read-only connections. A {@link Database} is one with the default
 * options; {@link Database#reading(ReadOptions)} gives one whose every read has the options
 * given, such as a timeout:
 *
 * <pre>{@code
 * Reading quick = db.reading(ReadOptions.timeout(Duration.ofMillis(250)));
 * List<Row> recent = quick.query("SELECT * FROM event ORDER BY id DESC LIMIT 20");
 * Optional<Account> one = quick.queryOneAs(Account.class,
 *         "SELECT * FROM account WHERE id = ?", id);
 * }</pre>
 *
 * <p>With a {@linkplain ReadOptions#timeout() timeout}, a read has a deadline: the moment of its
 * call plus the timeout. SQLite work still running at the deadline is stopped and the read fails
 * with {@link DeadlineExceededException}; a stream's deadline bounds the whole stream.
 *
 * <p>Thread-safe, and holds nothing but its database and options: keep one, or make one per
 * call.
 */
public interface Reading extends Queries {

    /**
     * Runs a query on one reader and hands each row to {@code each} as SQLite steps it, holding
     * none: a result of any size is read in bounded memory. {@link
     * DatabaseOptions#maxResultBytes()} does not apply (nothing accumulates); the read's timeout
     * and cancellation do, checked inside SQLite and before each row, and {@link
     * DatabaseOptions#maxReadDuration()} logs a stream that held its snapshot too long.
     *
     * <pre>{@code
     * long total = db.stream("SELECT amount FROM ledger WHERE day = ?", new Object[] {day},
     *         row -> sum.add(row.getLong("amount")));
     * }</pre>
     *
     * <p><b>One reader, one snapshot.</b> The query is one statement, so it sees one committed
     * state however long it runs, and it holds its reader until the last row (or a failure): a
     * long stream keeps checkpoints from resetting the WAL, and counts against {@link
     * DatabaseOptions#readers()}. SQL that writes is refused as in {@link #query(String,
     * Object...)}. While {@linkplain Database#cork() corked} it runs on the writer lane, as reads
     * do.
     *
     * <p><b>Threads.</b> {@code each} runs on the thread that steps the statement: the caller's
     * own when it is a platform thread; for a virtual-thread caller (SQLite never runs on one) a
     * platform thread of the runtime's pool, while the caller waits. It should not block for
     * long, and must not wait for a write of this database that this read would hold up.
     *
     * <p><b>Failures.</b> An exception {@code each} throws ends the read and propagates to the
     * caller as it is, not wrapped; the reader is cleaned and returned either way. Other failures
     * are {@link LanesException}s, as for {@link #query(String, Object...)}.
     *
     * @param args the query's positional parameters; null for none
     * @return the number of rows handed to {@code each}
     */
    long stream(String sql, Object[] args, Consumer<Row> each);

    /**
     * Runs a read body on one of the database's read-only connections and returns its result.
     *
     * <p><b>Snapshot.</b> The body runs inside one read transaction, so all its statements see
     * the same committed state, however many writes commit meanwhile. It never sees uncommitted
     * writes, and never waits for the writer (the database runs in WAL mode).
     *
     * <p><b>Admission.</b> At most {@link DatabaseOptions#readers()} reads run at once; the
     * others wait in arrival order for at most {@link DatabaseOptions#readerCheckoutTimeout()},
     * then fail with {@link AdmissionTimeoutException} (retryable; the read never ran). A read
     * inside a read of the same database needs a second reader.
     *
     * <p><b>Guard.</b> The body's connection refuses writes and transaction control with {@link
     * ReadOnlyViolationException} before SQLite runs them; {@code close} and connection-wide
     * settings are refused with {@link InvalidRequestException}. A refusal the body catches still
     * fails the read. The connection and its statements are valid only during the call, on the
     * calling thread. Failures are {@link LanesException}s: the body's own exception or an SQL
     * error arrives as the cause of a {@link ReadFailedException}.
     *
     * <p><b>Threads.</b> SQLite runs only on platform threads. Called from a platform thread,
     * the read runs right on it; called from a virtual thread, it runs on the runtime's pool
     * while the caller parks, and interrupting the caller stops it ({@link CancelledException}).
     *
     * <p>While the database is {@linkplain Database#cork() corked}, reads run on the writer lane
     * instead (after the writes queued before them, under the same read-only guard) and see the
     * corked writes; read timeouts do not apply there.
     */
    <T> T read(SqlFunction<T> body);

    /**
     * {@link #read(SqlFunction)}, returning at once with a future; the read runs on the runtime's
     * pool once admitted. Cancelling the future (or completing it some other way, such as {@code
     * orTimeout}) stops the read inside SQLite and returns its reader at once. Admission
     * failures known at the call ({@link ClosingException}, {@link ClosedException}) are thrown
     * here; an {@link AdmissionTimeoutException} arrives in the future.
     */
    <T> CompletableFuture<T> readAsync(SqlFunction<T> body);
}

package dev.lanes;

/**
 * An interactive transaction: statements that run in order on the writer connection inside one
 * {@code BEGIN IMMEDIATE … COMMIT}, with the caller deciding between them. Obtained from {@link
 * Database#begin()}; use it in try-with-resources:
 *
 * <pre>{@code
 * try (Transaction tx = db.begin()) {
 *     long balance = tx.query("SELECT balance FROM account WHERE id = ?", id).get(0).getLong("balance");
 *     tx.execute("UPDATE account SET balance = ? WHERE id = ?", balance - 10, id);
 *     tx.commit();
 * }
 * }</pre>
 *
 * <p>The transaction holds SQLite's write lock from its first instant, so a read-then-write never
 * fails with {@code SQLITE_BUSY}. While it is open, other writes to the database queue behind it,
 * but no thread is held between its statements. A transaction left idle for longer than {@link
 * DatabaseOptions#transactionIdleTimeout()} is rolled back so that it cannot stall the database;
 * later calls on it then fail with {@link WriteOutcome#ROLLED_BACK}.
 *
 * <p>A statement that fails rolls back alone and leaves the transaction open, unless it ended the
 * whole transaction (a conflict clause {@code OR ROLLBACK}, {@code RAISE(ROLLBACK)}, an I/O
 * error), which then reports {@code ROLLED_BACK}. Thread-safe, but its statements run one at a
 * time in call order.
 *
 * <p>Transactions that arrive faster than they commit share one {@code COMMIT}: when this one
 * commits while another waits to begin, its SQLite transaction stays open for the next ones,
 * which join it each in its own savepoint, and one {@code COMMIT} acknowledges them all (bounded by {@link DatabaseOptions#maxGroupSize()} and a wait of 2 ms). {@link #commit()}
 * returns only after that {@code COMMIT}. When a transaction committing with this one ends the
 * shared transaction (as above), this one runs again from what its statements returned, and
 * commits if every statement returns the same; one that cannot (it ran a body, or a statement
 * answers differently, as {@code random()} does) fails {@code ROLLED_BACK} with a message that
 * says so: retry it, as after any rollback.
 */
public interface Transaction extends Queries, AutoCloseable {

    /** Runs one statement with positional parameters and returns its update count. */
    int execute(String sql, Object... args);

    /**
     * Runs a body on the guarded writer connection inside this transaction. If it throws, what it
     * did is undone (a savepoint) and the transaction stays open.
     */
    <T> T run(SqlFunction<T> body);

    /**
     * Commits. Returns once {@code COMMIT} returned (the one it may share with the transactions
     * after it); on failure the exception's outcome says {@code ROLLED_BACK} or {@code UNKNOWN},
     * never a guess.
     */
    void commit();

    /** Rolls back; the rollback is verified. A no-op on an ended transaction. */
    void rollback();

    /** Whether the transaction is open: begun and neither committed nor rolled back. */
    boolean isOpen();

    /** Rolls back unless committed. Idempotent. */
    @Override
    void close();
}

package dev.lanes.internal.sql;

import dev.lanes.SqlFunction;
import dev.lanes.internal.sql.text.StatementShape;
import java.time.Duration;

/**
 * An open read-write transaction as a statement layer (JDBC) drives it, the counterpart of
 * {@link ReadTransaction}: whoever owns the writer implements it, so that the statement layer
 * depends on this interface and not on the writer.
 */
public interface WriteTransaction {
    /**
     * Runs one statement its caller admitted, returning what {@code returns} says; stopped when
     * it runs longer than {@code timeout} (null: no limit), failing {@link
     * dev.lanes.DeadlineExceededException}.
     */
    Object execute(StatementShape shape, Object[] args, Returns returns, Duration timeout);

    /** Runs a savepoint statement ({@code SAVEPOINT}, {@code RELEASE}, {@code ROLLBACK TO}). */
    void savepoint(String sql);

    /** Runs {@code body} on the transaction's connection. */
    <T> T run(SqlFunction<T> body);

    /** Commits the transaction. */
    void commit();

    /** Rolls the transaction back; no-op when it already ended. */
    void rollback();
}

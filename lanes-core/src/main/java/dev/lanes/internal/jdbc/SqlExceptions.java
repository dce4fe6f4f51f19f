package dev.lanes.internal.jdbc;

import dev.lanes.CancelledException;
import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.ConstraintViolationException;
import dev.lanes.DatabaseDeadException;
import dev.lanes.DeadlineExceededException;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sqlite.Constraints;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.types.Parameters;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLRecoverableException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/**
 * A {@link LanesException} as the standard {@link SQLException} a JDBC caller expects, with the
 * Lanes exception as its cause, so that Spring's exception translation and retry libraries
 * understand the outcome:
 *
 * <table>
 * <caption>Outcomes as SQL exceptions</caption>
 * <tr><th>outcome</th><th>exception</th><th>SQLState</th></tr>
 * <tr><td>UNKNOWN</td><td>{@link SQLRecoverableException}</td><td>40003 (statement
 *     completion unknown)</td></tr>
 * <tr><td>ROLLED_BACK, a duplicate key (a {@code UNIQUE} or {@code PRIMARY KEY}
 *     constraint)</td><td>{@link SQLIntegrityConstraintViolationException}</td><td>23505
 *     (unique violation)</td></tr>
 * <tr><td>ROLLED_BACK, SQLite refused another constraint</td><td>{@link
 *     SQLIntegrityConstraintViolationException}</td><td>23000</td></tr>
 * <tr><td>ROLLED_BACK, SQLite refused the SQL</td><td>{@link SQLSyntaxErrorException}</td>
 *     <td>42000</td></tr>
 * <tr><td>ROLLED_BACK, any other</td><td>{@link SQLTransactionRollbackException}</td>
 *     <td>40000</td></tr>
 * <tr><td>NOT_STARTED, retryable (overloaded, queue full, busy, admission timeout, disk
 *     floor)</td><td>{@link SQLTransientConnectionException}, a {@code
 *     SQLTransientException}</td><td>08001</td></tr>
 * <tr><td>a deadline passed, or cancelled</td><td>{@link SQLTimeoutException}</td>
 *     <td>HYT00</td></tr>
 * <tr><td>a call the data source refuses ({@code InvalidRequestException}: transaction control
 *     as SQL text, several statements in one, a write from the thread that holds the pinned
 *     transaction outside it, such as Spring's {@code REQUIRES_NEW})</td><td>{@link
 *     SQLFeatureNotSupportedException}</td><td>0A000 (feature not supported)</td></tr>
 * <tr><td>a parameter refused: a wrong count or one never set, a type Lanes cannot store,
 *     text that is not valid UTF-16</td><td>{@link SQLNonTransientException}; {@link
 *     SQLDataException} for the text</td><td>07001; 07006; 22021</td></tr>
 * <tr><td>a write in a read-only transaction or on a reader</td><td>{@link
 *     SQLNonTransientException}</td><td>25006 (read-only SQL transaction)</td></tr>
 * <tr><td>closing, closed, dead</td><td>{@link SQLNonTransientConnectionException}</td>
 *     <td>08003</td></tr>
 * <tr><td>any other NOT_STARTED</td><td>{@link SQLNonTransientException}</td><td>HY000</td></tr>
 * </table>
 * A constraint's kind comes from {@link Constraints}, as the native API's {@link
 * ConstraintViolationException#kind()} does. The vendor code is SQLite's primary result code when SQLite failed the statement (as
 * sqlite-jdbc's own exceptions carry it), else 0. A duplicate key has its own SQLState because
 * translators tell it apart by state: Spring's {@code DuplicateKeyException} needs {@code 23505}
 * (with {@code 23000} and SQLite's code 19 it was a plain {@code DataIntegrityViolationException}).
 * An unknown outcome is a {@code SQLRecoverableException} ("recover, then retry"), not a bare
 * {@code SQLException}: Spring reads the class {@code 40} of a bare one as a concurrency failure,
 * a {@code TransientDataAccessException} that retry advice repeats blindly, though the write may
 * have persisted; a recoverable one it calls {@code RecoverableDataAccessException}.
 * A refused call is "not supported" rather than a syntax error because nothing is wrong with
 * its SQL: Spring translated a {@code REQUIRES_NEW} on the pinned database into a {@code
 * BadSqlGrammarException} whose message hid the reason; as a {@code
 * SQLFeatureNotSupportedException} it is an {@code InvalidDataAccessApiUsageException} that
 * carries it. Stateless.
 */
public final class SqlExceptions {
    /** The SQLState the SQL standard defines for a statement whose completion is unknown. */
    public static final String COMPLETION_UNKNOWN = "40003";
    /** The SQLState of a call the data source refuses before anything runs. */
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    /** The SQLState of a duplicate key, as PostgreSQL, H2 and Spring's translation know it. */
    public static final String UNIQUE_VIOLATION = "23505";

    private SqlExceptions() {}

    public static SQLException of(LanesException e) {
        String message = e.getMessage();
        SQLException sqlite = Constraints.sqliteError(e.getCause());
        int vendor = sqlite == null ? 0 : sqlite.getErrorCode();
        if (e.outcome() == WriteOutcome.UNKNOWN) {
            return new SQLRecoverableException(message, COMPLETION_UNKNOWN, vendor, e);
        }
        if (e instanceof DeadlineExceededException || e instanceof CancelledException) {
            return new SQLTimeoutException(message, "HYT00", vendor, e);
        }
        if (e instanceof ReadOnlyViolationException) {
            return new SQLNonTransientException(message, "25006", vendor, e);
        }
        Parameters.Refusal parameter = parameterRefusal(e);
        if (parameter != null) {
            String state = parameter.getSQLState();
            return state.startsWith("22") ? new SQLDataException(message, state, 0, e)
                    : new SQLNonTransientException(message, state, 0, e);
        }
        if (e instanceof InvalidRequestException) {
            return new SQLFeatureNotSupportedException(message, FEATURE_NOT_SUPPORTED, vendor, e);
        }
        if (e instanceof ClosedException || e instanceof ClosingException
                || e instanceof DatabaseDeadException) {
            return new SQLNonTransientConnectionException(message, "08003", vendor, e);
        }
        if (e.outcome() == WriteOutcome.ROLLED_BACK) {
            ConstraintViolationException.Kind constraint =
                    e instanceof ConstraintViolationException
                    ? ((ConstraintViolationException) e).kind() : Constraints.kindOf(sqlite);
            if (constraint != null) {
                return new SQLIntegrityConstraintViolationException(message,
                        constraint.duplicateKey() ? UNIQUE_VIOLATION : "23000", vendor, e);
            }
            if (sqlite != null && SqliteConnections.primaryCode(sqlite) == 1) {
                // SQLITE_ERROR: no such table, syntax, ...
                return new SQLSyntaxErrorException(message, "42000", vendor, e);
            }
            return new SQLTransactionRollbackException(message, "40000", vendor, e);
        }
        if (e.retryable()) {
            return new SQLTransientConnectionException(message, "08001", vendor, e);
        }
        return new SQLNonTransientException(message, "HY000", vendor, e);
    }

    /** The refusal of a parameter behind {@code e}: a wrong count, type or text; else null. */
    private static Parameters.Refusal parameterRefusal(Throwable e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof Parameters.Refusal) {
                return (Parameters.Refusal) c;
            }
        }
        return null;
    }
}

package dev.lanes.internal.sqlite;

import dev.lanes.ConstraintViolationException.Kind;
import java.sql.SQLException;
import org.sqlite.SQLiteException;

/**
 * Which constraint SQLite refused a statement for, read from its extended result code: the one
 * mapping behind {@link dev.lanes.ConstraintViolationException#kind()} on the native API and the
 * SQLState ({@code 23505} for a duplicate key, else {@code 23000}) of the JDBC data source.
 * Stateless.
 */
public final class Constraints {
    private static final int CONSTRAINT = 19;

    private Constraints() {}

    /**
     * The constraint that {@code failure}, or the first SQLite error in its causes, reports; null
     * when SQLite did not refuse it for a constraint.
     */
    public static Kind kindOf(Throwable failure) {
        SQLException sqlite = sqliteError(failure);
        if (sqlite == null || SqliteConnections.primaryCode(sqlite) != CONSTRAINT) {
            return null;
        }
        int extended = sqlite instanceof SQLiteException
                ? ((SQLiteException) sqlite).getResultCode().code : sqlite.getErrorCode();
        switch (extended) {
            case 2067: // SQLITE_CONSTRAINT_UNIQUE
                return Kind.UNIQUE;
            case 1555: // SQLITE_CONSTRAINT_PRIMARYKEY
            case 2579: // SQLITE_CONSTRAINT_ROWID: a duplicate rowid
                return Kind.PRIMARY_KEY;
            case 787: // SQLITE_CONSTRAINT_FOREIGNKEY
                return Kind.FOREIGN_KEY;
            case 275: // SQLITE_CONSTRAINT_CHECK
                return Kind.CHECK;
            case 1299: // SQLITE_CONSTRAINT_NOTNULL
                return Kind.NOT_NULL;
            default: // TRIGGER (RAISE), DATATYPE, FUNCTION, VTAB, PINNED, or no extended code
                return Kind.OTHER;
        }
    }

    /**
     * The SQLite error of {@code failure}: itself or its first cause that is an {@link
     * SQLException} with SQLite's result code; null when SQLite did not fail it.
     */
    public static SQLException sqliteError(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof SQLException && ((SQLException) c).getErrorCode() != 0) {
                return (SQLException) c;
            }
        }
        return null;
    }
}

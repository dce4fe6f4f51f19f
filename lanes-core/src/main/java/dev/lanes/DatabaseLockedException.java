package dev.lanes;

/** Another process or runtime owns the database file. */
public final class DatabaseLockedException extends LanesException {
    /** A failure with this message and no cause. */
    public DatabaseLockedException(String message) {
        super(ErrorCode.DATABASE_LOCKED, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public DatabaseLockedException(String message, Throwable cause) {
        super(ErrorCode.DATABASE_LOCKED, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** Another process or runtime owns the database file. */
public final class DatabaseLockedException extends LanesException {
    public DatabaseLockedException(String message) {
        super(ErrorCode.DATABASE_LOCKED, WriteOutcome.NOT_STARTED, message, null);
    }

    public DatabaseLockedException(String message, Throwable cause) {
        super(ErrorCode.DATABASE_LOCKED, WriteOutcome.NOT_STARTED, message, cause);
    }
}

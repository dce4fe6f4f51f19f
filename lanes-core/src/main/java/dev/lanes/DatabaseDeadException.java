package dev.lanes;

/** The database could not be opened, or its connection was lost; the cause is attached. Every request fails until it is reopened. */
public final class DatabaseDeadException extends LanesException {
    /** A failure with this message and no cause. */
    public DatabaseDeadException(String message) {
        super(ErrorCode.DATABASE_DEAD, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public DatabaseDeadException(String message, Throwable cause) {
        super(ErrorCode.DATABASE_DEAD, WriteOutcome.NOT_STARTED, message, cause);
    }
}

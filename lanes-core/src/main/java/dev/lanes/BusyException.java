package dev.lanes;

/** Another connection (usually another process) held SQLite's write lock for the whole {@code busyTimeout}; the write never ran. */
public final class BusyException extends LanesException {
    /** A failure with this message and no cause. */
    public BusyException(String message) {
        super(ErrorCode.BUSY, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public BusyException(String message, Throwable cause) {
        super(ErrorCode.BUSY, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** The database (or the runtime) is closed; the request never ran. */
public final class ClosedException extends LanesException {
    /** A failure with this message and no cause. */
    public ClosedException(String message) {
        super(ErrorCode.CLOSED, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public ClosedException(String message, Throwable cause) {
        super(ErrorCode.CLOSED, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** The database is closing and no longer accepts work; the request never ran. */
public final class ClosingException extends LanesException {
    /** A failure with this message and no cause. */
    public ClosingException(String message) {
        super(ErrorCode.CLOSING, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public ClosingException(String message, Throwable cause) {
        super(ErrorCode.CLOSING, WriteOutcome.NOT_STARTED, message, cause);
    }
}

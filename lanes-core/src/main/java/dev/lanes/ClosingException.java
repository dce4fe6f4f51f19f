package dev.lanes;

/** The database is closing and no longer accepts work; the request never ran. */
public final class ClosingException extends LanesException {
    public ClosingException(String message) {
        super(ErrorCode.CLOSING, WriteOutcome.NOT_STARTED, message, null);
    }

    public ClosingException(String message, Throwable cause) {
        super(ErrorCode.CLOSING, WriteOutcome.NOT_STARTED, message, cause);
    }
}

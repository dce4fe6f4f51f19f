package dev.lanes;

/** The database (or the runtime) is closed; the request never ran. */
public final class ClosedException extends LanesException {
    public ClosedException(String message) {
        super(ErrorCode.CLOSED, WriteOutcome.NOT_STARTED, message, null);
    }

    public ClosedException(String message, Throwable cause) {
        super(ErrorCode.CLOSED, WriteOutcome.NOT_STARTED, message, cause);
    }
}

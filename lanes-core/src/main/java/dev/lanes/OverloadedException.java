package dev.lanes;

/** The write queue was full when the write arrived; it was refused at once and never ran. Retry later or raise {@code writeQueueCapacity}. */
public final class OverloadedException extends LanesException {
    public OverloadedException(String message) {
        super(ErrorCode.OVERLOADED, WriteOutcome.NOT_STARTED, message, null);
    }

    public OverloadedException(String message, Throwable cause) {
        super(ErrorCode.OVERLOADED, WriteOutcome.NOT_STARTED, message, cause);
    }
}

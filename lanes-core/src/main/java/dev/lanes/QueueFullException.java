package dev.lanes;

/** The write queue stayed full for the whole enqueue timeout; the write never ran. */
public final class QueueFullException extends LanesException {
    public QueueFullException(String message) {
        super(ErrorCode.QUEUE_FULL, WriteOutcome.NOT_STARTED, message, null);
    }

    public QueueFullException(String message, Throwable cause) {
        super(ErrorCode.QUEUE_FULL, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** The write queue stayed full for the whole enqueue timeout; the write never ran. */
public final class QueueFullException extends LanesException {
    /** A failure with this message and no cause. */
    public QueueFullException(String message) {
        super(ErrorCode.QUEUE_FULL, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public QueueFullException(String message, Throwable cause) {
        super(ErrorCode.QUEUE_FULL, WriteOutcome.NOT_STARTED, message, cause);
    }
}

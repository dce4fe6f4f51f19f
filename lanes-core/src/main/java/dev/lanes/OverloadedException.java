package dev.lanes;

/**
 * The database could not take the write now, and it never ran: its write queue was full when the
 * write arrived (retry later or raise {@code writeQueueCapacity}), or its writer connection,
 * closed by an idle release or the connection budget, could not be reopened (retry later; when
 * the process runs out of file descriptors, lower {@code maxOpenConnections}).
 */
public final class OverloadedException extends LanesException {
    /** A failure with this message and no cause. */
    public OverloadedException(String message) {
        super(ErrorCode.OVERLOADED, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public OverloadedException(String message, Throwable cause) {
        super(ErrorCode.OVERLOADED, WriteOutcome.NOT_STARTED, message, cause);
    }
}

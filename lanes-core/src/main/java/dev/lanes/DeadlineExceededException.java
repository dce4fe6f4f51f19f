package dev.lanes;

/** The request's deadline passed before it finished. */
public final class DeadlineExceededException extends LanesException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public DeadlineExceededException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.DEADLINE_EXCEEDED, outcome, message, cause);
    }
}

package dev.lanes;

/** The request's deadline passed before it finished. */
public final class DeadlineExceededException extends LanesException {
    public DeadlineExceededException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.DEADLINE_EXCEEDED, outcome, message, cause);
    }
}

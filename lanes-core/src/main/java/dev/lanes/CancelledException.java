package dev.lanes;

/** The request was cancelled by its caller. */
public final class CancelledException extends LanesException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public CancelledException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.CANCELLED, outcome, message, cause);
    }
}

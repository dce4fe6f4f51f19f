package dev.lanes;

/** The request was cancelled by its caller. */
public final class CancelledException extends LanesException {
    public CancelledException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.CANCELLED, outcome, message, cause);
    }
}

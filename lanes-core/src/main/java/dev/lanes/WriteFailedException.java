package dev.lanes;

/**
 * A write's body or SQL failed; the cause is attached and {@link #outcome()} says whether it
 * rolled back or its fate is unknown. A broken constraint is the subclass {@link
 * ConstraintViolationException}.
 */
public sealed class WriteFailedException extends LanesException
        permits ConstraintViolationException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public WriteFailedException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.WRITE_FAILED, outcome, message, cause);
    }

    /** A failure of a more precise kind; for {@link ConstraintViolationException}. */
    WriteFailedException(ErrorCode code, WriteOutcome outcome, String message, Throwable cause) {
        super(code, outcome, message, cause);
    }
}

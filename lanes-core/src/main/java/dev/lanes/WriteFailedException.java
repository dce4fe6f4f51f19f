package dev.lanes;

/** A write's body or SQL failed; the cause is attached and {@link #outcome()} says whether it rolled back or its fate is unknown. */
public final class WriteFailedException extends LanesException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public WriteFailedException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.WRITE_FAILED, outcome, message, cause);
    }
}

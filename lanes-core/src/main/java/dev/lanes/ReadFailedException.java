package dev.lanes;

/**
 * A read's body or SQL failed; the cause is attached. A read writes nothing, so {@link
 * #outcome()} is {@link WriteOutcome#ROLLED_BACK} when it ran and {@link WriteOutcome#NOT_STARTED}
 * when it could not start (for example, no reader connection could be opened).
 */
public final class ReadFailedException extends LanesException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public ReadFailedException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.READ_FAILED, outcome, message, cause);
    }
}

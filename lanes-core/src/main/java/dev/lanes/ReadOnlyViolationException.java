package dev.lanes;

/** A read tried to write or to control a transaction; it was refused before SQLite ran it. */
public final class ReadOnlyViolationException extends LanesException {
    /** A failure with this message and no cause. */
    public ReadOnlyViolationException(String message) {
        super(ErrorCode.READ_ONLY_VIOLATION, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public ReadOnlyViolationException(String message, Throwable cause) {
        super(ErrorCode.READ_ONLY_VIOLATION, WriteOutcome.NOT_STARTED, message, cause);
    }
}

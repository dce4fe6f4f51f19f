package dev.lanes;

/** The database file was replaced underneath the runtime; the database is dead. */
public final class IdentityMismatchException extends LanesException {
    /** A failure with this message and no cause. */
    public IdentityMismatchException(String message) {
        super(ErrorCode.IDENTITY_MISMATCH, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public IdentityMismatchException(String message, Throwable cause) {
        super(ErrorCode.IDENTITY_MISMATCH, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** The database file was replaced underneath the runtime; the database is dead. */
public final class IdentityMismatchException extends LanesException {
    public IdentityMismatchException(String message) {
        super(ErrorCode.IDENTITY_MISMATCH, WriteOutcome.NOT_STARTED, message, null);
    }

    public IdentityMismatchException(String message, Throwable cause) {
        super(ErrorCode.IDENTITY_MISMATCH, WriteOutcome.NOT_STARTED, message, cause);
    }
}

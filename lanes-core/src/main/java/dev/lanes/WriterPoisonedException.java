package dev.lanes;

/** The database's writer is poisoned: an earlier rollback could not be verified, so the writer refuses all work. Reads continue; {@code diagnostics().writer().poisonCause()} names the cause. Reopen the database to recover. */
public final class WriterPoisonedException extends LanesException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public WriterPoisonedException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.WRITER_POISONED, outcome, message, cause);
    }
}

package dev.lanes;

/**
 * A statement of a batch or script failed. The whole batch rolled back (it is one request, so
 * it is atomic); {@link #failedIndex()} says which statement failed and {@link #executed()} how
 * many ran before it. The SQLite error is the cause.
 */
public final class BatchFailedException extends LanesException {
    private final int failedIndex;
    private final int executed;

    /**
     * A batch whose statement {@code failedIndex} failed after {@code executed} statements ran.
     *
     * @param outcome what became of the batch
     * @param message what happened
     * @param failedIndex the zero-based index of the statement that failed
     * @param executed how many statements ran before it
     * @param cause the SQLite error, or null
     */
    public BatchFailedException(WriteOutcome outcome, String message, int failedIndex,
            int executed, Throwable cause) {
        super(ErrorCode.BATCH_FAILED, outcome, message, cause);
        this.failedIndex = failedIndex;
        this.executed = executed;
    }

    /** The zero-based index of the statement that failed. */
    public int failedIndex() {
        return failedIndex;
    }

    /** How many statements ran successfully before it (all rolled back with it). */
    public int executed() {
        return executed;
    }
}

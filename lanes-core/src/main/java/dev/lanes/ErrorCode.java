package dev.lanes;

/** A stable, machine-readable code for each kind of {@link LanesException}. */
public enum ErrorCode {
    OVERLOADED(true),
    QUEUE_FULL(true),
    ADMISSION_TIMEOUT(true),
    BUSY(true),
    WRITE_FAILED(false),
    WRITER_POISONED(false),
    INVALID_REQUEST(false),
    READ_ONLY_VIOLATION(false),
    CANCELLED(false),
    DEADLINE_EXCEEDED(true),
    CLOSING(false),
    CLOSED(false),
    CLOSE_TIMEOUT(false),
    DATABASE_DEAD(false),
    DATABASE_LOCKED(false),
    IDENTITY_MISMATCH(false),
    UNSUPPORTED_DRIVER(false),
    CAPACITY_FLOOR(true),
    RESULT_TOO_LARGE(false),
    BATCH_FAILED(false),
    READ_FAILED(false),
    MAPPING_FAILED(false),
    /**
     * The database belongs to another process of a fleet ({@code lanes-fleet}): the request was
     * not started here; it may succeed at the owner the exception names, or here once the
     * tenant has moved here.
     */
    NOT_OWNER(true);

    private final boolean retryable;

    ErrorCode(boolean retryable) {
        this.retryable = retryable;
    }

    /**
     * Whether the same request may succeed if simply tried again later (load, contention or a
     * deadline), as opposed to a failure that repeats until something changes.
     */
    public boolean retryable() {
        return retryable;
    }
}

package dev.lanes;

/**
 * A stable, machine-readable code for each kind of {@link LanesException}: match on it, not on
 * message texts. Each constant names its exception; {@link #retryable()} says whether the same
 * request may succeed if simply tried again later. docs/errors.md gives each one's outcome, JDBC
 * SQLState and Spring exception.
 */
public enum ErrorCode {
    /**
     * {@link OverloadedException}: the write queue was full, or the writer could not reopen its
     * connection; never ran. Retryable.
     */
    OVERLOADED(true),
    /**
     * {@link QueueFullException}: the write queue stayed full for the whole enqueue timeout;
     * never ran. Retryable.
     */
    QUEUE_FULL(true),
    /**
     * {@link AdmissionTimeoutException}: no reader became free within the checkout timeout; never
     * ran. Retryable.
     */
    ADMISSION_TIMEOUT(true),
    /**
     * {@link BusyException}: another process held SQLite's write lock for the whole busy timeout;
     * never ran. Retryable.
     */
    BUSY(true),
    /**
     * {@link WriteFailedException}: a write's body or SQL failed; rolled back, or unknown when
     * its commit could not be verified.
     */
    WRITE_FAILED(false),
    /**
     * {@link ConstraintViolationException}: SQLite refused a write for a broken constraint
     * ({@code UNIQUE}, {@code PRIMARY KEY}, {@code FOREIGN KEY}, {@code CHECK}, {@code NOT
     * NULL}; see its {@code kind()}); rolled back, or unknown when the rollback could not be
     * verified.
     */
    CONSTRAINT_VIOLATION(false),
    /**
     * {@link WriterPoisonedException}: the writer refuses work since a commit or rollback could
     * not be verified; reopen the database.
     */
    WRITER_POISONED(false),
    /**
     * {@link InvalidRequestException}: Lanes refused the request before SQLite ran it
     * (transaction control in a body, several statements where one is expected, {@code ATTACH}, a
     * value it cannot store).
     */
    INVALID_REQUEST(false),
    /**
     * {@link ReadOnlyViolationException}: a read tried to write or to control a transaction;
     * refused before SQLite ran it.
     */
    READ_ONLY_VIOLATION(false),
    /**
     * {@link CancelledException}: the caller cancelled the request (a future cancelled, a thread
     * interrupted).
     */
    CANCELLED(false),
    /**
     * {@link DeadlineExceededException}: the request's deadline passed; nothing of it persisted.
     * Retryable.
     */
    DEADLINE_EXCEEDED(true),
    /** {@link ClosingException}: the database is closing and takes no new work. */
    CLOSING(false),
    /** {@link ClosedException}: the database or the runtime is closed. */
    CLOSED(false),
    /**
     * {@link CloseTimeoutException}: a close did not finish within its timeout; it goes on in the
     * background.
     */
    CLOSE_TIMEOUT(false),
    /**
     * {@link DatabaseDeadException}: the database could not open, or lost its file or connection;
     * every request fails until it is reopened.
     */
    DATABASE_DEAD(false),
    /** {@link DatabaseLockedException}: another process or runtime owns the database file. */
    DATABASE_LOCKED(false),
    /**
     * {@link IdentityMismatchException}: the file at the path is not the one first opened; the
     * database is dead.
     */
    IDENTITY_MISMATCH(false),
    /**
     * {@link UnsupportedDriverException}: the sqlite-jdbc on the class path is older than the
     * oldest Lanes supports, or lacks what Lanes uses; nothing opens until it is upgraded.
     */
    UNSUPPORTED_DRIVER(false),
    /**
     * {@link CapacityFloorException}: free disk space is at or below the reserve; the write never
     * ran. Retryable.
     */
    CAPACITY_FLOOR(true),
    /** {@link ResultTooLargeException}: a query's rows grew past {@code maxResultBytes}. */
    RESULT_TOO_LARGE(false),
    /**
     * {@link BatchFailedException}: a statement of a batch or script failed; the whole request
     * rolled back.
     */
    BATCH_FAILED(false),
    /** {@link ReadFailedException}: a read's body or SQL failed, or no reader could be opened. */
    READ_FAILED(false),
    /**
     * {@link MappingException}: a value did not convert to the type asked for, or a result had
     * more rows than one.
     */
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

package dev.lanes;

/**
 * A result did not fit what the caller asked to read it as: a value that does not convert to the
 * requested Java type (a {@code TEXT} that is no date, an {@code INTEGER} out of an {@code int}'s
 * range, a {@code NULL} for a primitive), a column a record needs that the result lacks, or more
 * than one row where at most one was expected. The message names the column, the value's SQLite
 * type ({@code INTEGER}, {@code REAL}, {@code TEXT}, {@code BLOB} or {@code NULL}) and the target
 * type, and for a record its type and component.
 *
 * <p>The conversion runs on rows the read already returned, so nothing was written and nothing
 * is left to undo: {@link #outcome()} is {@link WriteOutcome#ROLLED_BACK}, as for any read that
 * ran, and an interactive transaction whose query failed to map stays open, as it does after a
 * statement that failed alone. Not retryable: the same data fails the same way.
 */
public final class MappingException extends LanesException {
    /** A failure with this message and no cause. */
    public MappingException(String message) {
        super(ErrorCode.MAPPING_FAILED, WriteOutcome.ROLLED_BACK, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public MappingException(String message, Throwable cause) {
        super(ErrorCode.MAPPING_FAILED, WriteOutcome.ROLLED_BACK, message, cause);
    }
}

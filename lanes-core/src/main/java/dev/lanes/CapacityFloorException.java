package dev.lanes;

/** Free disk space is at or below the configured reserve; the write was refused and nothing was written. */
public final class CapacityFloorException extends LanesException {
    /** A failure with this message and no cause. */
    public CapacityFloorException(String message) {
        super(ErrorCode.CAPACITY_FLOOR, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public CapacityFloorException(String message, Throwable cause) {
        super(ErrorCode.CAPACITY_FLOOR, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** Free disk space is at or below the configured reserve; the write was refused and nothing was written. */
public final class CapacityFloorException extends LanesException {
    public CapacityFloorException(String message) {
        super(ErrorCode.CAPACITY_FLOOR, WriteOutcome.NOT_STARTED, message, null);
    }

    public CapacityFloorException(String message, Throwable cause) {
        super(ErrorCode.CAPACITY_FLOOR, WriteOutcome.NOT_STARTED, message, cause);
    }
}

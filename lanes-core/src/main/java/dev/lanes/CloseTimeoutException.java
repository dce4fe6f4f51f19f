package dev.lanes;

/** Closing did not finish within its timeout. The close goes on in the background; no accepted work is abandoned. */
public final class CloseTimeoutException extends LanesException {
    /** A failure with this message and no cause. */
    public CloseTimeoutException(String message) {
        super(ErrorCode.CLOSE_TIMEOUT, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public CloseTimeoutException(String message, Throwable cause) {
        super(ErrorCode.CLOSE_TIMEOUT, WriteOutcome.NOT_STARTED, message, cause);
    }
}

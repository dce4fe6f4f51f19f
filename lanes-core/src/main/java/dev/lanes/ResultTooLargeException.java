package dev.lanes;

/** A result grew past {@code maxResultBytes}. */
public final class ResultTooLargeException extends LanesException {
    /** A failure with this message and no cause. */
    public ResultTooLargeException(String message) {
        super(ErrorCode.RESULT_TOO_LARGE, WriteOutcome.ROLLED_BACK, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public ResultTooLargeException(String message, Throwable cause) {
        super(ErrorCode.RESULT_TOO_LARGE, WriteOutcome.ROLLED_BACK, message, cause);
    }
}

package dev.lanes;

/** A result grew past {@code maxResultBytes}. */
public final class ResultTooLargeException extends LanesException {
    public ResultTooLargeException(String message) {
        super(ErrorCode.RESULT_TOO_LARGE, WriteOutcome.ROLLED_BACK, message, null);
    }

    public ResultTooLargeException(String message, Throwable cause) {
        super(ErrorCode.RESULT_TOO_LARGE, WriteOutcome.ROLLED_BACK, message, cause);
    }
}

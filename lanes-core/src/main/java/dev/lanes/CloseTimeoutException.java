package dev.lanes;

/** Closing did not finish within its timeout. The close goes on in the background; no accepted work is abandoned. */
public final class CloseTimeoutException extends LanesException {
    public CloseTimeoutException(String message) {
        super(ErrorCode.CLOSE_TIMEOUT, WriteOutcome.NOT_STARTED, message, null);
    }

    public CloseTimeoutException(String message, Throwable cause) {
        super(ErrorCode.CLOSE_TIMEOUT, WriteOutcome.NOT_STARTED, message, cause);
    }
}

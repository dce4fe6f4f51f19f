package dev.lanes;

/** No reader connection became free within {@code readerCheckoutTimeout}; the read never ran. Retryable. */
public final class AdmissionTimeoutException extends LanesException {
    /** A failure with this message and no cause. */
    public AdmissionTimeoutException(String message) {
        super(ErrorCode.ADMISSION_TIMEOUT, WriteOutcome.NOT_STARTED, message, null);
    }

    /** A failure with this message, caused by {@code cause} (null when none). */
    public AdmissionTimeoutException(String message, Throwable cause) {
        super(ErrorCode.ADMISSION_TIMEOUT, WriteOutcome.NOT_STARTED, message, cause);
    }
}

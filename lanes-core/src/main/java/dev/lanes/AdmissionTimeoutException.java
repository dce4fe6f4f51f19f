package dev.lanes;

/** No reader connection became free within {@code readerCheckoutTimeout}; the read never ran. Retryable. */
public final class AdmissionTimeoutException extends LanesException {
    public AdmissionTimeoutException(String message) {
        super(ErrorCode.ADMISSION_TIMEOUT, WriteOutcome.NOT_STARTED, message, null);
    }

    public AdmissionTimeoutException(String message, Throwable cause) {
        super(ErrorCode.ADMISSION_TIMEOUT, WriteOutcome.NOT_STARTED, message, cause);
    }
}

package dev.lanes;

/** The request asked for something Lanes refuses, such as transaction control inside a body; it was refused before SQLite ran it. */
public final class InvalidRequestException extends LanesException {
    /** A failure with this outcome and message, caused by {@code cause} (null when none). */
    public InvalidRequestException(WriteOutcome outcome, String message, Throwable cause) {
        super(ErrorCode.INVALID_REQUEST, outcome, message, cause);
    }
}

package dev.lanes;

import java.util.Objects;

/**
 * The root of every error Lanes raises. Unchecked; each subclass is a failure a caller can act
 * on. {@link #code()} names it for machines, {@link #outcome()} says what became of the request.
 */
public class LanesException extends RuntimeException {
    private final ErrorCode code;
    private final WriteOutcome outcome;

    /**
     * A failure of this kind and outcome.
     *
     * @param code the kind, for machines
     * @param outcome what became of the request
     * @param message what happened, to which database, and what to do
     * @param cause what failed beneath, or null
     */
    public LanesException(ErrorCode code, WriteOutcome outcome, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
        this.outcome = Objects.requireNonNull(outcome, "outcome");
    }

    /** The machine-readable kind of this failure. */
    public ErrorCode code() {
        return code;
    }

    /**
     * What became of the request: {@link WriteOutcome#ROLLED_BACK}, {@link
     * WriteOutcome#NOT_STARTED} or {@link WriteOutcome#UNKNOWN}. A failed read reports {@code
     * NOT_STARTED} or {@code ROLLED_BACK}: it wrote nothing either way.
     */
    public WriteOutcome outcome() {
        return outcome;
    }

    /** Whether trying the same request again later may succeed; see {@link ErrorCode#retryable()}. */
    public boolean retryable() {
        return code.retryable();
    }
}

package dev.lanes;

/**
 * What became of a request that did not succeed. Every request ends in exactly one outcome:
 * committed (it returned normally), or one of these three, carried by its exception.
 */
public enum WriteOutcome {
    /** It ran, and everything it did was rolled back; nothing of it persisted. */
    ROLLED_BACK,
    /** It never ran: no statement of it reached SQLite. Retrying cannot duplicate it. */
    NOT_STARTED,
    /**
     * Lanes cannot tell whether it persisted (a rollback or commit failed and the connection's
     * state could not be verified). Check the data before retrying.
     */
    UNKNOWN
}

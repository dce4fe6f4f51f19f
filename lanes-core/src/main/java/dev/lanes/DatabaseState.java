package dev.lanes;

/** The lifecycle of a {@link Database}: {@code RUNNING → CLOSING → CLOSED}, or {@code DEAD}. */
public enum DatabaseState {
    /** Accepting work. */
    RUNNING,
    /** No longer accepting work; accepted work is draining. */
    CLOSING,
    /** Every connection is closed. */
    CLOSED,
    /** A connection could not be opened or was lost; every request fails. */
    DEAD
}

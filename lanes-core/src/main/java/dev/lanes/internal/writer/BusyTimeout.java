package dev.lanes.internal.writer;

import java.sql.SQLException;

/** {@code BEGIN IMMEDIATE} stayed busy for the whole {@code busyTimeout} budget. */
public final class BusyTimeout extends Exception {
    private static final long serialVersionUID = 1L;

    final long waitedNanos;

    /**
     * @param waitedNanos how long the attempts took
     * @param last the latest refusal
     */
    public BusyTimeout(long waitedNanos, SQLException last) {
        super(last);
        this.waitedNanos = waitedNanos;
    }
}

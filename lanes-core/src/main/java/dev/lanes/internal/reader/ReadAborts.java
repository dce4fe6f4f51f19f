package dev.lanes.internal.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reads a close of a {@link ReaderSet} does not wait for (a shutdown, or a close past its
 * {@code closeTimeout}), and their end. A read running inside SQLite is stopped ({@link
 * ReaderConnection#stopForClose}, by the progress handler that enforces a read's deadline), so
 * it fails with the typed read failure saying the database closed ({@link ReadFailures#closed})
 * and its reader goes back. A read its
 * user holds between pages (a {@link HeldRead}: a JDBC result set that streams) is ended: its
 * reader goes back and its next page fails. Either way the close is not left waiting for a read
 * that may never end or a user who may never come back.
 *
 * <p>A set makes one at its first held read or its first abort (compare-and-set), so that a set
 * that never streamed nor aborted holds none. {@link #held} is a concurrent set; {@link #why}
 * is volatile, written before any connection is stopped.
 */
final class ReadAborts {

    /** A read whose user holds its reader between pages; see the class comment. */
    interface HeldRead {
        /**
         * Ends the read now, on whichever thread calls (it moves to a platform thread for
         * SQLite): its reader goes back, and its next page fails with {@link
         * dev.lanes.ClosedException} carrying {@code why}. Waits for a page in progress; does
         * nothing once it ended.
         */
        void abort(String why);
    }

    /** The reads held between pages now. */
    private final Set<HeldRead> held = ConcurrentHashMap.newKeySet();
    /** What {@link #why} says when no close stopped the reads. */
    static final String UNSAID = "the database closed";

    /** Why the set's close stopped its reads; null until it did. */
    private volatile String why;

    /** {@code r} keeps its reader between pages from now on, until {@link #released}. */
    void held(HeldRead r) {
        held.add(r);
    }

    /** {@code r} gave its reader back (or is about to, on this thread). */
    void released(HeldRead r) {
        held.remove(r);
    }

    /** Whether a close stopped the set's reads. */
    boolean stopped() {
        return why != null;
    }

    /** Why a close stopped the set's reads; {@link #UNSAID} when none did. */
    String why() {
        String w = why;
        return w == null ? UNSAID : w;
    }

    /** Every read from now on stops, for {@code reason}; before {@link #abort}. */
    void stopping(String reason) {
        why = reason;
    }

    /**
     * Stops the reads running on {@code open} (every connection of the set, idle or leased),
     * then ends the reads held between pages; on the calling thread. A page in progress is
     * stopped first, so that ending its read does not wait for it.
     */
    void abort(List<ReaderConnection> open, String reason) {
        for (ReaderConnection c : open) {
            c.stopForClose();
        }
        for (HeldRead r : new ArrayList<>(held)) {
            r.abort(reason);
        }
    }
}

package dev.lanes;

import java.time.Duration;

/**
 * A point-in-time view of one database's reader connections and their admission, read without
 * touching SQLite. Together the fields show the shape of a reader wait: capacity, availability,
 * active and peak work, bounded failures, and how long connections were held.
 *
 * @param readers the configured cap on reader connections ({@link DatabaseOptions#readers()})
 * @param checkoutTimeout how long a read waits for a reader ({@link
 *     DatabaseOptions#readerCheckoutTimeout()})
 * @param busyTimeout SQLite's busy timeout on reader connections ({@link
 *     DatabaseOptions#busyTimeout()})
 * @param availableSlots readers a new read could take now without waiting
 * @param openConnections reader connections open now (they open lazily, up to {@code readers})
 * @param waiting reads waiting for a reader now
 * @param acquisitions reads that obtained a reader since open
 * @param checkoutTimeouts reads that gave up waiting for a reader ({@link
 *     AdmissionTimeoutException}); cancellations and deadlines are not counted here
 * @param busyTimeouts reads on a checked-out reader that SQLite refused with {@code SQLITE_BUSY}
 *     once the busy timeout elapsed; disjoint from {@code checkoutTimeouts}
 * @param currentCheckouts readers checked out now
 * @param peakCheckouts the most readers checked out at once since open
 * @param completedCheckouts checkouts that ended since open
 * @param longestHold the longest completed checkout, including the connection's clean-up or
 *     replacement, since the connection is not reusable before that finishes
 * @param replacedConnections reader connections closed because a read left them dirty and a
 *     verified clean-up was not possible
 * @param deadlinesExceeded reads that failed with {@link DeadlineExceededException}
 * @param cancellations reads stopped because they were cancelled
 */
public record ReaderDiagnostics(
        int readers,
        Duration checkoutTimeout,
        Duration busyTimeout,
        int availableSlots,
        int openConnections,
        int waiting,
        long acquisitions,
        long checkoutTimeouts,
        long busyTimeouts,
        int currentCheckouts,
        int peakCheckouts,
        long completedCheckouts,
        Duration longestHold,
        long replacedConnections,
        long deadlinesExceeded,
        long cancellations) {}

package dev.lanes.internal.reader;

/**
 * A slot of the {@link ReaderSet} held by one read, and its connection once opened. Owned by the
 * read that holds it: only its thread touches {@link #connection}, until it returns the lease.
 */
final class Lease {
    final long acquiredAt;
    /** Null until the read opens one; owned by the lease holder. */
    ReaderConnection connection;

    Lease(ReaderConnection connection, long acquiredAt) {
        this.connection = connection;
        this.acquiredAt = acquiredAt;
    }
}

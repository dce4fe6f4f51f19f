package dev.lanes.fleet.internal;

/**
 * A replica in object storage cannot be restored as it is: a part fails its checksum or cannot
 * be decompressed, a WAL segment or index is missing, or a file is not what SQLite wrote. The
 * restore then leaves nothing behind; it never yields a database that lacks part of the replica.
 */
public final class ReplicaCorruptException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public ReplicaCorruptException(String message) {
        super(message);
    }

    public ReplicaCorruptException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.lanes.dqlite;

/**
 * A statement prepared on the leader by {@link DqliteSession#prepare(String)}; usable on that
 * session only.
 */
public interface DqliteStatement extends AutoCloseable {
    /** The SQL text it was prepared from. */
    String sql();

    /** The number of parameters the statement takes. */
    int parameterCount();

    /**
     * Releases the statement on the server (FINALIZE). Idempotent; a no-op once its session is
     * closed.
     */
    @Override
    void close();
}

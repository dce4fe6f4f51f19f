package dev.lanes.internal.sql;

/** A statement of a batch or script failed; carries where, for {@code BatchFailedException}. */
public final class BatchFailure extends Exception {
    public final int index;
    final String sql;

    public BatchFailure(int index, String sql, Throwable cause) {
        super("statement " + index + " failed (" + cause.getMessage() + "): " + sql, cause);
        this.index = index;
        this.sql = sql;
    }
}

package dev.lanes.internal;

/** A statement of a batch or script failed; carries where, for {@code BatchFailedException}. */
final class BatchFailure extends Exception {
    final int index;
    final String sql;

    BatchFailure(int index, String sql, Throwable cause) {
        super("statement " + index + " failed (" + cause.getMessage() + "): " + sql, cause);
        this.index = index;
        this.sql = sql;
    }
}

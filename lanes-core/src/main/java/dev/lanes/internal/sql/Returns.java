package dev.lanes.internal.sql;

/** What one statement's write returns to whoever asked for it. */
public enum Returns {
    /** Its update count, an {@code Integer}. */
    COUNT,
    /** Its update count and the rowid it inserted last, a {@link Statements.Update}. */
    KEYS,
    /** The rows it returns ({@code INSERT … RETURNING}), a {@link ResultData}. */
    ROWS
}

package dev.lanes;

/**
 * SQLite refused a write because it broke a constraint of the schema: a duplicate {@code UNIQUE}
 * or {@code PRIMARY KEY} value, a {@code FOREIGN KEY} with no parent row, a failed {@code CHECK},
 * a {@code NULL} in a {@code NOT NULL} column. {@link #kind()} says which, from SQLite's extended
 * result code; the driver's {@code SQLiteException} is the cause and the message names the
 * table and column as SQLite does ({@code UNIQUE constraint failed: account.email}).
 *
 * <p>It is a {@link WriteFailedException}, so code that catches that catches this too. {@link
 * #outcome()} is {@link WriteOutcome#ROLLED_BACK} (nothing of the request persisted; in an
 * interactive transaction, the failed statement was undone and the transaction stays open), or
 * {@link WriteOutcome#UNKNOWN} when the rollback could not be verified. Not retryable: the same
 * data fails the same way. Through JDBC it is SQLState {@code 23505} for a duplicate key and
 * {@code 23000} for another constraint.
 */
public final class ConstraintViolationException extends WriteFailedException {
    /** Which constraint SQLite refused the write for. */
    public enum Kind {
        /** A {@code UNIQUE} constraint or unique index: the value exists already. */
        UNIQUE,
        /** A {@code PRIMARY KEY}: a row with this key exists already. */
        PRIMARY_KEY,
        /** A {@code FOREIGN KEY}: no parent row, or a parent row still referenced. */
        FOREIGN_KEY,
        /** A {@code CHECK} constraint's expression was false. */
        CHECK,
        /** A {@code NULL} in a {@code NOT NULL} column. */
        NOT_NULL,
        /** Another constraint ({@code RAISE(ABORT)} in a trigger, a rowid or datatype check). */
        OTHER;

        /** Whether this is a duplicate key: {@link #UNIQUE} or {@link #PRIMARY_KEY}. */
        public boolean duplicateKey() {
            return this == UNIQUE || this == PRIMARY_KEY;
        }
    }

    private final Kind kind;

    /**
     * A constraint failure of this kind.
     *
     * @param kind which constraint SQLite refused the write for
     * @param outcome what became of the request: rolled back, or unknown
     * @param message what happened, to which database
     * @param cause SQLite's error, or null
     */
    public ConstraintViolationException(Kind kind, WriteOutcome outcome, String message,
            Throwable cause) {
        super(ErrorCode.CONSTRAINT_VIOLATION, outcome, message, cause);
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
    }

    /** Which constraint SQLite refused the write for. */
    public Kind kind() {
        return kind;
    }
}

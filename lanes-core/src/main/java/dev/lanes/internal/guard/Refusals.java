package dev.lanes.internal.guard;

import dev.lanes.InvalidRequestException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;

/**
 * The refusals of the JDBC calls a guarded connection does not let run, one message per rule,
 * each naming the database. A refused request never ran ({@link WriteOutcome#NOT_STARTED}). The
 * refusals of SQL texts are {@code sql.text.Rule}'s. Stateless.
 */
final class Refusals {
    private Refusals() {}

    /** A JDBC call that would control the transaction of a body on the writer. */
    static InvalidRequestException transactionMethod(String database, String method) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": " + method
                + " is refused inside a body: the lane owns the transaction, and each write "
                + "already runs atomically", null);
    }

    /** A JDBC call that would control the transaction of a read. */
    static ReadOnlyViolationException readTransactionMethod(String database, String method) {
        return readOnly(database, method + " is refused in a read: the reader owns its "
                + "transaction, and a read body sees one snapshot from start to end");
    }

    /** {@code setReadOnly(false)} in a read. */
    static ReadOnlyViolationException readWrite(String database) {
        return readOnly(database, "setReadOnly(false) is refused: reads run on read-only "
                + "connections; write with db.write");
    }

    /** {@code close()} or {@code abort()} of a connection the runtime reuses. */
    static InvalidRequestException close(String database, String method) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": " + method
                + " is refused: the connection belongs to the runtime and is reused by later "
                + "requests", null);
    }

    /** A connection-wide setting, which would leak into later requests. */
    static InvalidRequestException setting(String database, String method) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": " + method
                + " is refused: the connection is shared with later requests; configure the "
                + "database through DatabaseOptions", null);
    }

    /** A guarded object used after its request ended, or from another thread. */
    static InvalidRequestException outsideItsRequest(String database) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": this "
                + "connection belongs to a request that has ended or runs on another thread; "
                + "use it only inside its body", null);
    }

    private static ReadOnlyViolationException readOnly(String database, String what) {
        return new ReadOnlyViolationException(database + ": " + what);
    }
}

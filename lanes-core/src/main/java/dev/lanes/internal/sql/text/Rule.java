package dev.lanes.internal.sql.text;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.text.StatementShape.Part;

/**
 * The rules a statement text is admitted by, each with its one message, the same wherever the
 * text was given (a message names the database, quotes the text, and for a batch or a script says
 * which of its statements broke the rule). A refused text never ran: every refusal is {@link
 * WriteOutcome#NOT_STARTED}. Which places apply which rules is {@link StatementPolicy}'s; which
 * check of SQLite's own stands behind a rule is said on each.
 */
public enum Rule {
    /**
     * Nothing but white space, comments and semicolons before the end or a NUL: sqlite-jdbc fails
     * such a text and then cannot close the connection it ran on.
     */
    NO_STATEMENT,
    /** A NUL: SQLite reads no further than it, so what follows would be dropped. */
    NUL,
    /** A lone UTF-16 surrogate: no valid text; SQLite would store it as {@code ?}. */
    LONE_SURROGATE,
    /** sqlite-jdbc's own {@code backup}/{@code restore}: they copy files past every guard. */
    DRIVER_COMMAND,
    /** A write on a reader (backed by the reader's read-only open and {@code query_only}). */
    WRITE_ON_READER,
    /** Transaction control: the lane owns the transaction. */
    TRANSACTION_CONTROL,
    /** {@code ATTACH} while the database allows none (backed by SQLite's attach limit of 0). */
    ATTACH,
    /** {@code VACUUM INTO}: it writes a file outside the database. */
    VACUUM_INTO,
    /** A pragma Lanes owns, set in SQL (see {@link PragmaTable.Use#OWNED}). */
    OWNED_PRAGMA,
    /** A process-wide pragma, set in SQL (see {@link PragmaTable.Use#PROCESS}). */
    PROCESS_PRAGMA,
    /** A connection setting set in SQL instead of the connection setup. */
    SETUP_PRAGMA,
    /** A pragma the table does not place: refused until it does. */
    UNKNOWN_PRAGMA,
    /** Several statements where one runs: the driver would run the first alone. */
    SEVERAL_STATEMENTS,
    /** A statement that returns rows where its rows are not read. */
    RETURNS_ROWS,
    /** A write with {@code RETURNING} on a cluster, whose writes return no rows. */
    CLUSTER_RETURNING,
    /**
     * {@code PRAGMA wal_checkpoint} on a cluster: each node checkpoints its own copy, and one run
     * through a session makes libdqlite 1.11's leader abort at its next write.
     */
    CLUSTER_CHECKPOINT;

    /**
     * The refusal of {@code shape} by this rule.
     *
     * @param part the statement that broke it; null for a rule of the whole text
     * @param locator which statement of a batch or script it was ({@code "statement 2 of the
     *     batch"}); null for none
     */
    LanesException refusal(String database, StatementShape shape, Part part, String locator) {
        String text = "'" + quoted(part == null ? shape.sql() : shape.text(part)) + "'";
        String at = locator == null ? "" : " in " + locator;
        String what = text + at;
        switch (this) {
            case NO_STATEMENT:
                return invalid(database, "an SQL text without a statement (nothing but white "
                        + "space, comments or semicolons before its end or a NUL) is refused ("
                        + what + "): the driver cannot run it");
            case NUL:
                return invalid(database, "an SQL text holding a NUL character (at offset "
                        + shape.nulAt() + ") is refused (" + what + "): SQLite reads no further "
                        + "than a NUL, so what follows it would be dropped; bind such a value as "
                        + "a parameter");
            case LONE_SURROGATE:
                return invalid(database, "an SQL text holding a lone UTF-16 surrogate (\\u"
                        + Integer.toHexString(shape.sql().charAt(shape.loneSurrogateAt()))
                                .toUpperCase(java.util.Locale.ROOT)
                        + " at offset " + shape.loneSurrogateAt() + ") is refused (" + what
                        + "): it is no valid text, and SQLite would store it as '?'");
            case DRIVER_COMMAND:
                String command = shape.driverCommand();
                return invalid(database, what + " is the driver's " + command + " command, "
                        + "which copies the database " + (command.equals("backup")
                                ? "to a file" : "from a file over it")
                        + " past every guard; it is refused (use db.backup(target) for a copy)");
            case WRITE_ON_READER:
                return new ReadOnlyViolationException(database + ": " + part.notARead()
                        + " is refused on a reader (" + what + "); reads run on read-only "
                        + "connections, so write with db.write or db.execute");
            default:
                return statementRefusal(database, shape, part, what);
        }
    }

    private LanesException statementRefusal(String database, StatementShape shape, Part part,
            String what) {
        switch (this) {
            case TRANSACTION_CONTROL:
                return invalid(database, "transaction control (" + part.keyword() + ") is "
                        + "refused (" + what + "): Lanes owns the transaction, and every request "
                        + "already runs atomically (db.begin() gives a transaction of several "
                        + "statements, ended by its commit() or rollback())");
            case ATTACH:
                return invalid(database, "ATTACH is refused (" + what + "): SQL reaches no file "
                        + "outside the database unless DatabaseOptions.maxAttachedDatabases "
                        + "allows it (it is 0)");
            case VACUUM_INTO:
                return invalid(database, "VACUUM INTO is refused (" + what + "): it writes a "
                        + "file outside the database; copy the database with db.backup(target)");
            case OWNED_PRAGMA:
            case PROCESS_PRAGMA:
            case SETUP_PRAGMA:
            case UNKNOWN_PRAGMA:
                return pragmaRefusal(database, part.pragma(), what);
            case SEVERAL_STATEMENTS:
                return invalid(database, "the text holds more than one statement (" + what
                        + "), and this call runs one: the driver would run the first alone; run "
                        + "several with db.executeScript or db.executeBatch, or one call each");
            case RETURNS_ROWS:
                return invalid(database, what + " returns rows, which this call does not read; "
                        + "use db.query for a query (a write with RETURNING returns its rows to "
                        + "tx.query or a write body)");
            case CLUSTER_RETURNING:
                return invalid(database, "a write with RETURNING is refused on a cluster "
                        + "database (" + what + "): a write there returns no rows; run the "
                        + "write, then read with query");
            case CLUSTER_CHECKPOINT:
                return invalid(database, "PRAGMA wal_checkpoint is refused on a cluster database "
                        + "(" + what + "): each node checkpoints its own copy of the database "
                        + "(one run through a session aborts the leader at its next write); "
                        + "db.checkpoint() runs none");
            default:
                throw new IllegalStateException(name());
        }
    }

    private LanesException pragmaRefusal(String database, StatementShape.Pragma pragma,
            String what) {
        String name = "PRAGMA " + pragma.name();
        PragmaTable.Entry entry = pragma.entry();
        switch (this) {
            case OWNED_PRAGMA:
                return invalid(database, name + " is refused on the writer (" + what + "): "
                        + "Lanes owns it: " + entry.reason());
            case PROCESS_PRAGMA:
                return invalid(database, name + " is refused (" + what + "): it is "
                        + "process-wide, so it would change every database of every runtime in "
                        + "this process (" + entry.reason() + ")");
            case SETUP_PRAGMA:
                return invalid(database, name + " is refused in SQL (" + what + "): it is a "
                        + "setting of the connection, which later requests share and a reopened "
                        + "connection forgets; set it on every connection with "
                        + "DatabaseOptions.builder().pragma(\"" + pragma.name() + "\", …) ("
                        + entry.reason() + ")");
            default:
                return invalid(database, name + " is refused (" + what + "): Lanes' pragma "
                        + "table does not place it (SQLite ignores a pragma it does not know, "
                        + "and a newer SQLite's pragma runs once the table says what it may do)");
        }
    }

    private static InvalidRequestException invalid(String database, String message) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": " + message
                + "; nothing ran", null);
    }

    /** The text for a message: one short line, NUL and lone surrogates shown escaped. */
    private static String quoted(String sql) {
        StringBuilder b = new StringBuilder(Math.min(sql.length(), 96));
        for (int i = 0; i < sql.length() && b.length() < 96; i++) {
            char c = sql.charAt(i);
            if (c == 0) {
                b.append("\\0");
            } else if (Character.isSurrogate(c) && !(Character.isHighSurrogate(c)
                    && i + 1 < sql.length() && Character.isLowSurrogate(sql.charAt(i + 1)))) {
                b.append("\\u").append(Integer.toHexString(c));
            } else {
                b.append(Character.isHighSurrogate(c) ? sql.substring(i, i + 2) : c);
                i += Character.isHighSurrogate(c) ? 1 : 0;
            }
        }
        return StatementShape.shorten(b.toString());
    }
}

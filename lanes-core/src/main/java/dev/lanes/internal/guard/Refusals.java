package dev.lanes.internal.guard;

import dev.lanes.InvalidRequestException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.ReadOnlyClassifier;
import dev.lanes.internal.sql.SqlText;
import dev.lanes.internal.sql.TextMemo;

/**
 * The refusals of SQL and JDBC calls that Lanes does not let run, one message per rule, each
 * naming the database and, where there is one, the statement. A refused request never ran
 * ({@link WriteOutcome#NOT_STARTED}). Stateless, but for the thread-safe memos of the texts that
 * passed.
 */
public final class Refusals {
    private Refusals() {}

    /**
     * Texts that passed {@link #transactionControl} and texts that passed {@link #writeOnReader}:
     * each verdict is a pure function of the text, so a text that passed once passes again
     * without its lexer passes. Only passing texts are kept (a refusal's message names the
     * database and the place, so it is built each time).
     */
    private static final TextMemo<Boolean> WRITER_TEXTS = new TextMemo<>();
    private static final TextMemo<Boolean> READER_TEXTS = new TextMemo<>();
    /**
     * Texts that hold no {@code ATTACH} statement, for {@link #attach}: whether a text holds
     * one is the text's alone, whatever the database's limit (a lexer pass per write was a
     * seventh of the Java samples of 64 writers' callers).
     */
    private static final TextMemo<Boolean> ATTACH_FREE_TEXTS = new TextMemo<>();

    /**
     * Refuses {@code sql} when a statement of it is transaction control ({@code BEGIN}, {@code
     * COMMIT}, {@code END}, {@code ROLLBACK}, {@code SAVEPOINT}, {@code RELEASE}): the lane owns
     * the transaction.
     *
     * <p>Every text given for the writer passes here (statements, scripts, batches, bodies,
     * interactive transactions), so the rules for any writer text are checked here too: a text
     * without any statement ({@link #noStatement}) and an assignment of a pragma the writer must
     * keep ({@link #writerPragmas}).
     *
     * @param where where the SQL was given, for the message ("db.execute", "a body", ...)
     */
    public static void transactionControl(String database, String where, String sql) {
        if (WRITER_TEXTS.contains(sql)) {
            return;
        }
        noStatement(database, where, sql);
        writerPragmas(database, sql);
        String keyword = SqlText.transactionControl(sql);
        if (keyword != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database
                    + ": transaction control (" + keyword + ") is refused in " + where + " ('"
                    + SqlText.shorten(sql) + "'): Lanes owns the transaction, and every request "
                    + "already runs atomically (db.begin() gives a transaction of several "
                    + "statements); nothing ran", null);
        }
        WRITER_TEXTS.remember(sql, Boolean.TRUE);
    }

    /**
     * Refuses {@code sql} holding several statements: the driver compiles only the first and
     * silently drops the rest, so it is refused before anything runs rather than half run.
     */
    public static void severalStatements(String database, String where, String sql) {
        if (SqlText.severalStatements(sql)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": " + where
                    + " holds more than one statement ('" + SqlText.shorten(sql) + "'); run "
                    + "them with executeScript or executeBatch; nothing ran", null);
        }
    }

    /**
     * Refuses a text that sqlite-jdbc would take for its own {@code backup … to} or {@code
     * restore … from} command instead of handing it to SQLite ({@code Statement.execute(String)}
     * and {@code executeUpdate(String)} do): it copies the database to a file, or a file over the
     * database, past every guard.
     */
    public static void driverCommand(String database, String sql) {
        String command = SqlText.driverCommand(sql);
        if (command != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": '"
                    + SqlText.shorten(sql) + "' is the driver's " + command + " command, which "
                    + "copies the database " + (command.equals("backup") ? "to a file" : "from a "
                    + "file over it") + " past every guard; it is refused (use db.backup(target) "
                    + "for a copy); nothing ran", null);
        }
    }

    /**
     * Refuses {@code ATTACH} in {@code sql} when the connection allows no attachment ({@code
     * attachLimit} 0; -1 when unknown, which refuses nothing: SQLite's limit still holds).
     *
     * @param where where the SQL was given, for the message
     */
    public static void attach(String database, String where, String sql, int attachLimit) {
        if (attachLimit != 0 || ATTACH_FREE_TEXTS.contains(sql)) {
            return;
        }
        for (String statement : SqlText.statementsOf(sql)) {
            if (SqlText.firstKeyword(statement).equals("ATTACH")) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": ATTACH "
                        + "is refused in " + where + " ('" + SqlText.shorten(sql) + "'): SQL "
                        + "reaches no file outside the database unless "
                        + "DatabaseOptions.maxAttachedDatabases allows it (it is 0); nothing ran",
                        null);
            }
        }
        ATTACH_FREE_TEXTS.remember(sql, Boolean.TRUE);
    }

    /**
     * Refuses a text in which SQLite finds no statement (nothing but white space, comments and
     * semicolons before its end or its first NUL): sqlite-jdbc fails it, and the connection it
     * ran on could never be closed again (regression: {@code
     * HostileInputAtScaleTest}, {@code TextWithoutAStatementTest}).
     */
    public static void noStatement(String database, String where, String sql) {
        if (SqlText.noStatement(sql)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": an SQL text "
                    + "without a statement (nothing but white space, comments or semicolons "
                    + "before its end or a NUL) is refused in " + where + " ('"
                    + SqlText.shorten(sql).replace("\0", "\\0") + "'): the driver cannot run it; "
                    + "nothing ran", null);
        }
    }

    /**
     * Refuses {@code sql} when a statement of it assigns a pragma the writer connection must keep
     * (see {@link #writerPragma(String, String, String)}), in any statement of it.
     */
    public static void writerPragmas(String database, String sql) {
        for (String statement : SqlText.statementsOf(sql)) {
            writerPragma(database, sql, ReadOnlyClassifier.assignedPragma(statement));
        }
    }

    /**
     * Refuses an assignment of a pragma the writer connection must keep as the runtime set it:
     * {@code query_only} (the writer must write: every later request would fail) and {@code
     * locking_mode} ({@code EXCLUSIVE} would lock the readers out of the file); and {@code
     * synchronous}, which would silently change the durability of every later acknowledged write
     * ({@code DatabaseOptions.synchronous} sets it).
     *
     * @param assigned the pragma the statement assigns, in upper case; null for none
     */
    public static void writerPragma(String database, String sql, String assigned) {
        if ("SYNCHRONOUS".equals(assigned)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": PRAGMA "
                    + "synchronous is refused on the writer ('" + SqlText.shorten(sql) + "'): it "
                    + "would change how durable every later acknowledged write is; set "
                    + "DatabaseOptions.synchronous instead; nothing ran", null);
        }
        if ("QUERY_ONLY".equals(assigned) || "LOCKING_MODE".equals(assigned)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": PRAGMA "
                    + assigned.toLowerCase(java.util.Locale.ROOT) + " is refused on the writer ('"
                    + SqlText.shorten(sql) + "'): the runtime's writer connection must keep "
                    + "writing and share the file with its readers, for every later request; "
                    + "nothing ran", null);
        }
    }

    /**
     * Refuses SQL that would write, or control a transaction, on a reader; and, since every text
     * for a reader passes here, a text without any statement ({@link #noStatement}).
     */
    public static void writeOnReader(String database, String sql) {
        if (READER_TEXTS.contains(sql)) {
            return;
        }
        noStatement(database, "a read", sql);
        String why = ReadOnlyClassifier.refusal(sql);
        if (why != null) {
            throw readOnly(database, why + " is refused on a reader ('" + SqlText.shorten(sql)
                    + "'); reads run on read-only connections, so write with db.write or "
                    + "db.execute");
        }
        READER_TEXTS.remember(sql, Boolean.TRUE);
    }

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

    /**
     * {@code VACUUM INTO} from inside a body (a write, a transaction step or maintenance): it
     * writes a file outside the database, and over an existing empty file too.
     */
    static InvalidRequestException vacuumInto(String database, String sql) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, database + ": VACUUM INTO "
                + "is refused inside a body ('" + SqlText.shorten(sql) + "'): it writes a file "
                + "outside the database; copy the database with db.backup(target)", null);
    }

    private static ReadOnlyViolationException readOnly(String database, String what) {
        return new ReadOnlyViolationException(database + ": " + what);
    }
}

package dev.lanes.internal.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * What the runtime needs to know of an SQL text before SQLite sees it: where its statements begin
 * and end, which keyword each starts with, and whether one is transaction control. All of it on
 * the {@link SqlLexer}.
 *
 * <p>Statement ends follow {@code sqlite3_complete()}: a semicolon ends a statement, except inside
 * {@code CREATE [TEMP|TEMPORARY] TRIGGER}, whose body ends only at an {@code END} that directly
 * follows a semicolon and is itself followed by one ({@code ; END ;}), so that {@code CASE … END}
 * inside the body does not end it; as SQLite's parser does (and {@code sqlite3_complete()} does
 * not), the rule also holds behind {@code EXPLAIN QUERY PLAN}. Stateless and thread-safe.
 */
public final class SqlText {
    private SqlText() {}

    /** The first keyword of the first statement, in ASCII upper case; empty when there is none. */
    public static String firstKeyword(String sql) {
        return SqlLexer.firstWord(sql);
    }

    /**
     * The first statement of {@code sql} that is transaction control: one that starts with
     * {@code BEGIN}, {@code COMMIT}, {@code END}, {@code ROLLBACK}, {@code SAVEPOINT} or {@code
     * RELEASE} once leading comments and white space are skipped. Returns its keyword, or null
     * when there is none.
     */
    public static String transactionControl(String sql) {
        String first = firstKeyword(sql);
        if (isTransactionKeyword(first)) {
            return first;
        }
        if (sql.indexOf(';') < 0) {
            return null; // one statement: the common case, decided without a pass
        }
        for (String statement : split(sql)) {
            String keyword = firstKeyword(statement);
            if (isTransactionKeyword(keyword)) {
                return keyword;
            }
        }
        return null;
    }

    static boolean isTransactionKeyword(String keyword) {
        switch (keyword) {
            case "BEGIN":
            case "COMMIT":
            case "END":
            case "ROLLBACK":
            case "SAVEPOINT":
            case "RELEASE":
                return true;
            default:
                return false;
        }
    }

    /**
     * Whether {@code sql} holds the keyword {@code word} (given in upper case) as a word, outside
     * comments, strings and quoted names.
     */
    public static boolean hasWord(String sql, String word) {
        SqlLexer lex = new SqlLexer(sql);
        while (lex.next()) {
            if (lex.is(word)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The statements of {@code sql} as {@link #split} finds them; a text without a semicolon is
     * its own single statement, found without a pass.
     */
    public static List<String> statementsOf(String sql) {
        return sql.indexOf(';') < 0 ? List.of(sql) : split(sql);
    }

    /**
     * The command of the driver, not of SQLite, that {@code sql} would run through {@code
     * Statement.execute(String)} or {@code executeUpdate(String)}: {@code "backup"} for
     * sqlite-jdbc's {@code backup [db] to file}, {@code "restore"} for its {@code restore [db]
     * from file}, or null. The driver takes a text for one when its first six (seven) characters
     * lower-case to {@code backup} ({@code restore}); this answers for every text whose first
     * characters match case-insensitively in any way Java folds case, a superset. SQLite has no
     * statement that starts so, so no SQL is lost.
     */
    public static String driverCommand(String sql) {
        if (sql.regionMatches(true, 0, "backup", 0, 6)) {
            return "backup";
        }
        if (sql.regionMatches(true, 0, "restore", 0, 7)) {
            return "restore";
        }
        return null;
    }

    /** Whether {@code sql} holds more than one statement (the driver would run only the first). */
    public static boolean severalStatements(String sql) {
        return sql.indexOf(';') >= 0 && split(sql).size() > 1;
    }

    /**
     * Splits a multi-statement text into its statements, each without its terminating semicolon
     * and stripped, leaving out statements that hold nothing but white space and comments.
     */
    public static List<String> split(String sql) {
        List<String> statements = new ArrayList<>();
        SqlLexer lex = new SqlLexer(sql);
        int statementStart = 0;
        int words = 0;
        /** Words of an {@code EXPLAIN [QUERY PLAN]} prefix, which the trigger rule looks past. */
        int prefixWords = 0;
        boolean sawCreate = false;
        boolean inTrigger = false;
        // the two tokens before the current one, as far as the trigger rule needs them
        boolean previousWasEnd = false;
        boolean semicolonBeforeEnd = false;
        boolean previousWasSemicolon = false;
        while (lex.next()) {
            if (lex.kind() == SqlLexer.Kind.SEMICOLON) {
                if (!inTrigger || (previousWasEnd && semicolonBeforeEnd)) {
                    addIfNotBlank(statements, sql.substring(statementStart, lex.start()));
                    statementStart = lex.end();
                    words = 0;
                    prefixWords = 0;
                    sawCreate = false;
                    inTrigger = false;
                }
                previousWasEnd = false;
                previousWasSemicolon = true;
                continue;
            }
            if (lex.kind() == SqlLexer.Kind.WORD) {
                words++;
                int word = words - prefixWords;
                if (word == 1 && prefixWords == 0 && lex.is("EXPLAIN")) {
                    prefixWords = 1;
                } else if (word == 1 && prefixWords == 1 && lex.is("QUERY")) {
                    prefixWords = 2;
                } else if (word == 1 && prefixWords == 2 && lex.is("PLAN")) {
                    prefixWords = 3;
                } else if (word == 1) {
                    sawCreate = lex.is("CREATE");
                } else if (sawCreate && word <= 3 && lex.is("TRIGGER")) {
                    inTrigger = true;
                } else if (sawCreate && word == 2 && !(lex.is("TEMP") || lex.is("TEMPORARY"))) {
                    sawCreate = false;
                }
                previousWasEnd = lex.is("END");
                semicolonBeforeEnd = previousWasEnd && previousWasSemicolon;
            } else {
                previousWasEnd = false;
            }
            previousWasSemicolon = false;
        }
        addIfNotBlank(statements, sql.substring(statementStart));
        return statements;
    }

    /**
     * Whether SQLite finds no statement in {@code sql}: nothing but white space, comments and
     * semicolons before its end or its first NUL (where SQLite stops reading). sqlite-jdbc fails
     * such a text ("The prepared statement has been finalized") and from then on cannot close
     * the connection it ran on, which stays open with its descriptors.
     */
    public static boolean noStatement(String sql) {
        int nul = sql.indexOf('\0');
        SqlLexer lex = new SqlLexer(sql, 0, nul < 0 ? sql.length() : nul);
        while (lex.next()) {
            if (lex.kind() != SqlLexer.Kind.SEMICOLON) {
                return false;
            }
        }
        return true;
    }

    private static void addIfNotBlank(List<String> statements, String statement) {
        if (SqlLexer.skipSpaceAndComments(statement, 0, statement.length()) < statement.length()) {
            statements.add(statement.strip());
        }
    }

    /** A statement cut to one line of at most 80 characters, for messages. */
    public static String shorten(String sql) {
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return oneLine.length() > 80 ? oneLine.substring(0, 77) + "..." : oneLine;
    }
}

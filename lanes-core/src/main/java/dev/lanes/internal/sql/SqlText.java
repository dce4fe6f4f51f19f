package dev.lanes.internal.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small SQL lexer: enough of SQLite's tokenizer to find where statements begin and end, and
 * which keyword each one starts with, while skipping comments, string literals and quoted
 * identifiers. It never parses beyond that; SQLite stays the judge of what the SQL means.
 *
 * <p>Statement ends follow {@code sqlite3_complete()}: a semicolon outside quotes and comments
 * ends a statement, except inside {@code CREATE [TEMP] TRIGGER}, whose body ends only at {@code
 * ; END ;}, an {@code END} that directly follows the semicolon of the body's last statement (so
 * {@code CASE … END;} inside the body does not end it).
 */
public final class SqlText {
    private SqlText() {}

    /** The first keyword of the first statement, upper-cased; empty when there is none. */
    public static String firstKeyword(String sql) {
        int start = skipSpaceAndComments(sql, 0);
        return word(sql, start);
    }

    /**
     * Whether any statement in {@code sql} is transaction control: it starts with {@code BEGIN},
     * {@code COMMIT}, {@code END}, {@code ROLLBACK}, {@code SAVEPOINT} or {@code RELEASE} once
     * leading comments and white space are stripped. Returns the offending keyword, or {@code
     * null} when there is none.
     */
    public static String transactionControl(String sql) {
        // Fast path: one statement, no semicolon inside it (the common case for bodies).
        String first = firstKeyword(sql);
        if (isTransactionKeyword(first)) {
            return first;
        }
        if (sql.indexOf(';') < 0) {
            return null;
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
     * Splits a multi-statement text into its statements, each without its terminating semicolon,
     * leaving out statements that hold nothing but white space and comments.
     */
    public static List<String> split(String sql) {
        List<String> statements = new ArrayList<>();
        int n = sql.length();
        int start = 0;
        int i = 0;
        // Trigger tracking, after sqlite3_complete(): words seen at the statement's start and
        // the word before the current position.
        int wordsInStatement = 0;
        boolean sawCreate = false;
        boolean inTrigger = false;
        String previousWord = "";
        // Whether the token before previousWord was a semicolon: END ends a trigger only there.
        boolean semicolonBeforePrevious = false;
        boolean semicolonLast = false;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c);
                previousWord = "";
                semicolonLast = false;
            } else if (c == '[') {
                int close = sql.indexOf(']', i + 1);
                i = close < 0 ? n : close + 1;
                previousWord = "";
                semicolonLast = false;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else if (c == ';') {
                if (!inTrigger || (previousWord.equals("END") && semicolonBeforePrevious)) {
                    addIfNotBlank(statements, sql.substring(start, i));
                    start = i + 1;
                    wordsInStatement = 0;
                    sawCreate = false;
                    inTrigger = false;
                }
                previousWord = "";
                semicolonLast = true;
                i++;
            } else if (isWordStart(c)) {
                int end = i + 1;
                while (end < n && isWordPart(sql.charAt(end))) {
                    end++;
                }
                String w = sql.substring(i, end).toUpperCase(Locale.ROOT);
                wordsInStatement++;
                if (wordsInStatement == 1) {
                    sawCreate = w.equals("CREATE");
                } else if (sawCreate && wordsInStatement <= 3 && w.equals("TRIGGER")) {
                    inTrigger = true;
                } else if (sawCreate && wordsInStatement == 2
                        && !(w.equals("TEMP") || w.equals("TEMPORARY"))) {
                    sawCreate = false;
                }
                previousWord = w;
                semicolonBeforePrevious = semicolonLast;
                semicolonLast = false;
                i = end;
            } else {
                if (!Character.isWhitespace(c)) {
                    previousWord = "";
                    semicolonLast = false;
                }
                i++;
            }
        }
        addIfNotBlank(statements, sql.substring(start));
        return statements;
    }

    private static void addIfNotBlank(List<String> statements, String statement) {
        if (skipSpaceAndComments(statement, 0) < statement.length()) {
            statements.add(statement.strip());
        }
    }

    /** The index of the first character at or after {@code i} that is not space or comment. */
    static int skipSpaceAndComments(String sql, int i) {
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else {
                return i;
            }
        }
        return n;
    }

    private static int skipQuoted(String sql, int i, char quote) {
        int n = sql.length();
        int j = i + 1;
        while (j < n) {
            if (sql.charAt(j) == quote) {
                if (j + 1 < n && sql.charAt(j + 1) == quote) {
                    j += 2; // a doubled quote stands for itself
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return n;
    }

    private static String word(String sql, int start) {
        int end = start;
        while (end < sql.length() && isWordPart(sql.charAt(end))) {
            end++;
        }
        return sql.substring(start, end).toUpperCase(Locale.ROOT);
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}

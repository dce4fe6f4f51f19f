package dev.lanes.dqlite.internal.client;

/**
 * Tells whether SQL text holds one statement, the way SQLite's tokenizer would split it: a
 * semicolon ends a statement unless it is inside a string ({@code '...'}), a quoted identifier
 * ({@code "..."}, {@code `...`}, {@code [...]}) or a comment ({@code -- ...}, {@code /* ... *}{@code /}).
 *
 * <p>The answer matters for outcomes: the server runs the statements of one EXEC_SQL one after
 * the other and stops at the first failure, so the failure of a later statement leaves the earlier
 * ones run. A {@code CREATE TRIGGER} body has semicolons of its own and counts as several here;
 * the error is on the safe side (its failure is reported as may-have-run).
 */
public final class SqlText {
    private SqlText() {}

    /** True when the text holds at most one statement (trailing semicolons, blanks and comments aside). */
    public static boolean isSingleStatement(String sql) {
        boolean ended = false; // a semicolon ended a statement that had tokens
        boolean tokens = false;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
                continue;
            }
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
                continue;
            }
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == ';') {
                if (tokens) {
                    ended = true;
                    tokens = false;
                }
                i++;
                continue;
            }
            if (ended) {
                return false;
            }
            tokens = true;
            char close = switch (c) {
                case '\'' -> '\'';
                case '"' -> '"';
                case '`' -> '`';
                case '[' -> ']';
                default -> 0;
            };
            if (close != 0) {
                i = skipQuoted(sql, i + 1, close);
            } else {
                i++;
            }
        }
        return true;
    }

    /** The index after the closing quote; a doubled quote (not for brackets) is an escaped one. */
    private static int skipQuoted(String sql, int from, char close) {
        int i = from;
        while (i < sql.length()) {
            if (sql.charAt(i) == close) {
                if (close != ']' && i + 1 < sql.length() && sql.charAt(i + 1) == close) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return i;
    }
}

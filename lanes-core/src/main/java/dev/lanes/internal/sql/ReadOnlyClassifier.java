package dev.lanes.internal.sql;

import java.util.List;
import java.util.Locale;

/**
 * Decides, from the SQL text alone and before SQLite runs anything, whether a statement may run on
 * a reader connection.
 *
 * <p>Every statement kind of SQLite's grammar is placed: {@code SELECT}, {@code VALUES}, {@code
 * EXPLAIN} and read-only {@code PRAGMA}s are allowed; refused are {@code INSERT}, {@code UPDATE},
 * {@code DELETE}, {@code REPLACE} (including upserts and {@code RETURNING} forms), DDL ({@code
 * CREATE}, {@code DROP}, {@code ALTER}), {@code ATTACH}/{@code DETACH}, transaction control
 * ({@code BEGIN}, {@code COMMIT}, {@code END}, {@code ROLLBACK}, {@code SAVEPOINT}, {@code
 * RELEASE}), {@code VACUUM}, {@code REINDEX}, {@code ANALYZE}, a {@code WITH} clause whose main
 * statement writes, a pragma assignment ({@code PRAGMA x = v} or {@code PRAGMA x(v)}, except the
 * pragmas whose argument only selects what to report, such as {@code table_info(t)}), and the
 * pragmas that act when merely named ({@code optimize}, {@code wal_checkpoint}, {@code
 * incremental_vacuum}). Every statement of a multi-statement text is checked. Comments, string
 * literals and quoted identifiers are skipped (see {@link SqlText}).
 *
 * <p>Words it does not know are left to SQLite, which rejects them as syntax errors; the reader's
 * {@code PRAGMA query_only=1} and read-only open mode remain the backstop for anything the text
 * hides (a function with side effects, say). Where the text is ambiguous the classifier refuses.
 *
 * <p>Stateless and thread-safe.
 */
public final class ReadOnlyClassifier {
    private ReadOnlyClassifier() {}

    /**
     * Why {@code sql} may not run on a reader, as a short phrase naming the statement kind (for
     * example {@code "INSERT"} or {@code "a pragma assignment (PRAGMA cache_size = …)"}), or
     * {@code null} when every statement in it only reads.
     */
    public static String refusal(String sql) {
        String first = SqlText.firstKeyword(sql);
        boolean single = sql.indexOf(';') < 0;
        if (single && (first.equals("SELECT") || first.equals("VALUES"))) {
            return null; // the common case, decided without another pass
        }
        if (single) {
            return refusalOfOne(sql, first);
        }
        List<String> statements = SqlText.split(sql);
        for (String statement : statements) {
            String why = refusalOfOne(statement, SqlText.firstKeyword(statement));
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private static String refusalOfOne(String statement, String keyword) {
        switch (keyword) {
            case "":
            case "SELECT":
            case "VALUES":
            case "EXPLAIN":
                return null;
            case "WITH":
                return refusalOfWith(statement);
            case "PRAGMA":
                return refusalOfPragma(statement);
            case "INSERT":
            case "UPDATE":
            case "DELETE":
            case "REPLACE":
            case "ATTACH":
            case "DETACH":
            case "VACUUM":
            case "REINDEX":
            case "ANALYZE":
                return keyword;
            case "CREATE":
            case "DROP":
            case "ALTER":
                return "DDL (" + keyword + ")";
            case "BEGIN":
            case "COMMIT":
            case "END":
            case "ROLLBACK":
            case "SAVEPOINT":
            case "RELEASE":
                return "transaction control (" + keyword + ")";
            default:
                return null; // not a statement SQLite knows: it fails to prepare
        }
    }

    /**
     * {@code WITH … <main statement>}: the main statement's keyword is the first word at
     * parenthesis depth 0 that follows a closing parenthesis at depth 0 (the end of a CTE's
     * column list or body) and is not {@code AS}, {@code NOT} or {@code MATERIALIZED}.
     */
    private static String refusalOfWith(String statement) {
        Lexer lex = new Lexer(statement);
        int depth = 0;
        boolean afterClose = false;
        for (Lexer.Token t = lex.next(); t != null; t = lex.next()) {
            if (t.kind == Lexer.PUNCT) {
                if (t.text.equals("(")) {
                    depth++;
                } else if (t.text.equals(")")) {
                    depth = Math.max(0, depth - 1);
                    afterClose = depth == 0;
                    continue;
                }
                afterClose = false;
            } else if (t.kind == Lexer.WORD && depth == 0 && afterClose) {
                switch (t.text) {
                    case "AS":
                    case "NOT":
                    case "MATERIALIZED":
                        continue;
                    case "INSERT":
                    case "UPDATE":
                    case "DELETE":
                    case "REPLACE":
                        return "WITH … " + t.text;
                    default:
                        return null; // SELECT, VALUES, or something SQLite will reject
                }
            } else if (depth == 0) {
                afterClose = false;
            }
        }
        return null;
    }

    /** Pragmas whose parenthesized argument only chooses what to report. */
    private static boolean argumentOnlySelects(String pragma) {
        switch (pragma) {
            case "TABLE_INFO":
            case "TABLE_XINFO":
            case "TABLE_LIST":
            case "INDEX_INFO":
            case "INDEX_XINFO":
            case "INDEX_LIST":
            case "FOREIGN_KEY_LIST":
            case "FOREIGN_KEY_CHECK":
            case "INTEGRITY_CHECK":
            case "QUICK_CHECK":
                return true;
            default:
                return false;
        }
    }

    /** Pragmas that change something when merely named. */
    private static boolean actsWhenNamed(String pragma) {
        switch (pragma) {
            case "OPTIMIZE":
            case "WAL_CHECKPOINT":
            case "INCREMENTAL_VACUUM":
                return true;
            default:
                return false;
        }
    }

    private static String refusalOfPragma(String statement) {
        Lexer lex = new Lexer(statement);
        lex.next(); // PRAGMA
        Lexer.Token name = lex.next();
        if (name == null) {
            return null;
        }
        Lexer.Token after = lex.next();
        if (after != null && after.kind == Lexer.PUNCT && after.text.equals(".")) {
            name = lex.next(); // schema.name
            if (name == null) {
                return null;
            }
            after = lex.next();
        }
        String pragma = name.text.toUpperCase(Locale.ROOT);
        String shown = pragma.toLowerCase(Locale.ROOT);
        if (after == null) {
            return actsWhenNamed(pragma) ? "PRAGMA " + shown : null;
        }
        if (after.kind == Lexer.PUNCT && after.text.equals("=")) {
            return "a pragma assignment (PRAGMA " + shown + " = …)";
        }
        if (after.kind == Lexer.PUNCT && after.text.equals("(")) {
            return argumentOnlySelects(pragma) ? null
                    : "a pragma assignment (PRAGMA " + shown + "(…))";
        }
        return "PRAGMA " + shown + " in a form that is not a plain read";
    }

    /** Tokens of one statement: words (upper-cased), quoted names, and single punctuation. */
    private static final class Lexer {
        static final int WORD = 0;
        static final int QUOTED = 1;
        static final int PUNCT = 2;
        static final int OTHER = 3;

        static final class Token {
            final int kind;
            final String text;

            Token(int kind, String text) {
                this.kind = kind;
                this.text = text;
            }
        }

        private final String sql;
        private int i;

        Lexer(String sql) {
            this.sql = sql;
        }

        Token next() {
            int n = sql.length();
            i = SqlText.skipSpaceAndComments(sql, i);
            if (i >= n) {
                return null;
            }
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int start = i;
                i = skipQuoted(c);
                return new Token(c == '\'' ? OTHER : QUOTED, sql.substring(start, i));
            }
            if (c == '[') {
                int close = sql.indexOf(']', i + 1);
                int start = i;
                i = close < 0 ? n : close + 1;
                return new Token(QUOTED, sql.substring(start, i));
            }
            if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i))
                        || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                return new Token(WORD, sql.substring(start, i).toUpperCase(Locale.ROOT));
            }
            if (Character.isDigit(c)) {
                int start = i;
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                return new Token(OTHER, sql.substring(start, i));
            }
            i++;
            return new Token(PUNCT, String.valueOf(c));
        }

        private int skipQuoted(char quote) {
            int n = sql.length();
            int j = i + 1;
            while (j < n) {
                if (sql.charAt(j) == quote) {
                    if (j + 1 < n && sql.charAt(j + 1) == quote) {
                        j += 2;
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return n;
        }
    }
}

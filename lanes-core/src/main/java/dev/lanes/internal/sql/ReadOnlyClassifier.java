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
 * RELEASE}), {@code VACUUM}, {@code REINDEX}, {@code ANALYZE}, an {@code EXPLAIN} of a pragma
 * that would be refused (SQLite applies it as it prepares it), a {@code WITH} clause whose main
 * statement writes, a pragma assignment ({@code PRAGMA x = v} or {@code PRAGMA x(v)}, except the
 * pragmas whose argument only selects what to report, such as {@code table_info(t)}), and the
 * pragmas that act when merely named ({@code optimize}, {@code wal_checkpoint}, {@code
 * incremental_vacuum}). Every statement of a multi-statement text is checked. Comments, string
 * literals and quoted identifiers are skipped (see {@link SqlLexer}).
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
                return null;
            case "EXPLAIN":
                return refusalOfExplain(statement);
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
        SqlLexer lex = new SqlLexer(statement);
        int depth = 0;
        boolean afterClose = false;
        while (lex.next()) {
            if (lex.isPunct('(')) {
                depth++;
                afterClose = false;
            } else if (lex.isPunct(')')) {
                depth = Math.max(0, depth - 1);
                afterClose = depth == 0;
            } else if (lex.kind() == SqlLexer.Kind.WORD && depth == 0 && afterClose) {
                String word = lex.upperWord();
                switch (word) {
                    case "AS":
                    case "NOT":
                    case "MATERIALIZED":
                        continue;
                    case "INSERT":
                    case "UPDATE":
                    case "DELETE":
                    case "REPLACE":
                        return "WITH … " + word;
                    default:
                        return null; // SELECT, VALUES, or something SQLite will reject
                }
            } else if (depth == 0) {
                afterClose = false;
            }
        }
        return null;
    }

    /**
     * {@code EXPLAIN [QUERY PLAN] <statement>} runs nothing of the statement, only prepares it.
     * But SQLite applies many pragma assignments while it prepares them ({@code query_only},
     * {@code cache_size}, {@code busy_timeout}, the other flag pragmas, even the process-wide
     * {@code soft_heap_limit}), so an explained pragma assignment is refused as the assignment
     * itself; a pragma that acts when named acts only when run, so explaining it is a read.
     */
    private static String refusalOfExplain(String statement) {
        int explained = afterExplain(statement);
        if (explained < 0 || !SqlText.firstKeyword(statement.substring(explained))
                .equals("PRAGMA")) {
            return null;
        }
        String why = refusalOfPragma(statement.substring(explained));
        // A pragma that acts when named acts only when it runs, which EXPLAIN never does.
        return why != null && why.startsWith("a pragma assignment") ? "EXPLAIN of " + why : null;
    }

    /**
     * Where the statement an {@code EXPLAIN [QUERY PLAN]} explains starts in {@code statement};
     * -1 when it is no such form.
     */
    private static int afterExplain(String statement) {
        SqlLexer lex = new SqlLexer(statement);
        if (!lex.next() || !lex.is("EXPLAIN") || !lex.next()) {
            return -1;
        }
        if (lex.is("QUERY") && (!lex.next() || !lex.is("PLAN") || !lex.next())) {
            return -1; // not an EXPLAIN SQLite accepts
        }
        return lex.start();
    }

    /**
     * The pragma {@code statement} assigns ({@code PRAGMA [schema.]name = v} or {@code name(v)},
     * also behind {@code EXPLAIN [QUERY PLAN]}, where SQLite applies many as it prepares them),
     * in ASCII upper case; null when it assigns none.
     */
    public static String assignedPragma(String statement) {
        int explained = afterExplain(statement);
        String pragma = explained < 0 ? statement : statement.substring(explained);
        if (!SqlText.firstKeyword(pragma).equals("PRAGMA")) {
            return null;
        }
        SqlLexer lex = new SqlLexer(pragma);
        String name = pragmaName(lex);
        return name != null && (lex.isPunct('=') || lex.isPunct('(')) ? name : null;
    }

    /**
     * Reads {@code PRAGMA [schema.]name} from a fresh lexer over a pragma statement, leaving it
     * on the token after the name (none at the end); the name in upper case, or null when the
     * statement ends before one.
     */
    private static String pragmaName(SqlLexer lex) {
        lex.next(); // PRAGMA
        if (!lex.next()) {
            return null;
        }
        String pragma = lex.upperName();
        if (lex.next() && lex.isPunct('.')) {
            if (!lex.next()) {
                return null; // schema. with nothing after it: SQLite rejects it
            }
            pragma = lex.upperName(); // schema.name
            lex.next();
        }
        return pragma;
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
        SqlLexer lex = new SqlLexer(statement);
        String pragma = pragmaName(lex);
        if (pragma == null) {
            return null;
        }
        String shown = pragma.toLowerCase(Locale.ROOT);
        if (lex.kind() == null || lex.kind() == SqlLexer.Kind.SEMICOLON) {
            return actsWhenNamed(pragma) ? "PRAGMA " + shown : null;
        }
        if (lex.isPunct('=')) {
            return "a pragma assignment (PRAGMA " + shown + " = …)";
        }
        if (lex.isPunct('(')) {
            return argumentOnlySelects(pragma) ? null
                    : "a pragma assignment (PRAGMA " + shown + "(…))";
        }
        return "PRAGMA " + shown + " in a form that is not a plain read";
    }
}

package dev.lanes.internal.sql.text;

import dev.lanes.internal.sql.text.StatementShape.Part;
import dev.lanes.internal.sql.text.StatementShape.Pragma;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@link StatementShape} in one pass of the {@link SqlLexer}: each token is looked at
 * once, by the statement it belongs to, while the statement's ends are found. A statement's kind
 * follows from its first keyword, from the statement behind {@code EXPLAIN [QUERY PLAN]}, from the
 * main statement of a {@code WITH} (the first word at depth 0 after a closing parenthesis at
 * depth 0 that is not {@code AS}, {@code NOT} or {@code MATERIALIZED}), and from {@code PRAGMA
 * [schema.]name [= value | (value)]} with the {@link PragmaTable}. Words it does not know are left
 * to SQLite, which rejects them as syntax errors.
 *
 * <p>Not thread-safe: one reader per text.
 */
final class ShapeReader {
    private final String sql;
    private final SqlLexer lex;
    private final List<Part> parts = new ArrayList<>(1);
    private boolean sawStatement;
    /** Whether a semicolon was read: a statement after one may start after a vertical tab. */
    private boolean afterSemicolon;
    private int nulAt = -1;
    private int loneSurrogateAt = -1;

    // the trigger rule of statement ends, across the statement's tokens
    private int words;
    private int prefixWords;
    private boolean sawCreate;
    private boolean inTrigger;
    private boolean previousWasEnd;
    private boolean semicolonBeforeEnd;
    private boolean previousWasSemicolon;

    // the current statement
    private int start = -1;
    private int tokens;
    private String keyword;
    /** 0 none; 1 after EXPLAIN; 2 after EXPLAIN QUERY; 3 after PLAN; 4 in the explained; -1 bad. */
    private int explain;
    private String main;
    private int flags;
    private boolean into;
    private boolean insertWord;
    private boolean functionName;
    private int depth;
    private boolean afterClose;
    private String withMain;
    /** 0 none; 1 expects the name; 2 after it; 3 after "schema."; 4 after schema.name; 5 after. */
    private int pragmaStep;
    private String pragmaSchema;
    private String pragmaName;
    private Pragma.Form pragmaForm;
    private int valueStart;
    private int valueEnd;

    ShapeReader(String sql) {
        this.sql = sql;
        this.lex = new SqlLexer(sql);
    }

    StatementShape read() {
        findNulAndLoneSurrogate();
        while (lex.next()) {
            if (lex.kind() == SqlLexer.Kind.SEMICOLON) {
                semicolon();
                continue;
            }
            if (nulAt < 0 || lex.start() < nulAt) {
                sawStatement = true;
            }
            if (start < 0 && afterSemicolon && lex.isPunct('\u000b')) {
                continue; // sqlite3_exec skips it between statements (sqlite3Isspace)
            }
            if (start < 0) {
                begin(lex.start());
            }
            triggerRule();
            token(tokens++);
        }
        finish(sql.length());
        return new StatementShape(sql, List.copyOf(parts), !sawStatement, nulAt,
                loneSurrogateAt);
    }

    private void findNulAndLoneSurrogate() {
        for (int i = 0, n = sql.length(); i < n; i++) {
            char c = sql.charAt(i);
            if (c == 0) {
                nulAt = nulAt < 0 ? i : nulAt;
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n
                        && Character.isLowSurrogate(sql.charAt(i + 1))) {
                    i++;
                } else if (loneSurrogateAt < 0) {
                    loneSurrogateAt = i;
                }
            }
        }
    }

    /** A semicolon ends the statement, unless it is inside a trigger's body. */
    private void semicolon() {
        if (!inTrigger || (previousWasEnd && semicolonBeforeEnd)) {
            finish(lex.start());
            words = 0;
            prefixWords = 0;
            sawCreate = false;
            inTrigger = false;
        }
        previousWasEnd = false;
        previousWasSemicolon = true;
        afterSemicolon = true;
    }

    /** {@code CREATE [TEMP] TRIGGER}, also behind {@code EXPLAIN [QUERY PLAN]}, and its END. */
    private void triggerRule() {
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

    private void begin(int at) {
        start = at;
        tokens = 0;
        keyword = "";
        explain = 0;
        main = null;
        flags = 0;
        into = false;
        insertWord = false;
        functionName = false;
        depth = 0;
        afterClose = false;
        withMain = null;
        pragmaStep = 0;
        pragmaSchema = null;
        pragmaName = null;
        pragmaForm = null;
        valueStart = -1;
        valueEnd = -1;
    }

    /** The {@code t}-th token of the statement (from 0). */
    private void token(int t) {
        boolean word = lex.kind() == SqlLexer.Kind.WORD;
        if (t == 0) {
            keyword = lex.upperWord();
            if (keyword.equals("EXPLAIN")) {
                explain = 1;
            } else {
                mainKeyword();
            }
        } else if (explain == 1) {
            explain = lex.is("QUERY") ? 2 : 4;
            if (explain == 4) {
                mainKeyword();
            }
        } else if (explain == 2) {
            explain = lex.is("PLAN") ? 3 : -1;
        } else if (explain == 3) {
            explain = 4;
            mainKeyword();
        } else {
            body(word);
        }
    }

    private void mainKeyword() {
        main = lex.upperWord();
        if (main.equals("PRAGMA")) {
            pragmaStep = 1;
        }
    }

    /** A token after the (explained) statement's keyword. */
    private void body(boolean word) {
        if (main == null) {
            return; // EXPLAIN QUERY without PLAN: SQLite rejects it
        }
        if (pragmaStep > 0) {
            pragmaToken();
        }
        if (main.equals("WITH") && withMain == null) {
            withToken(word);
        }
        if (word) {
            if (lex.is("RETURNING")) {
                flags |= Part.RETURNING;
            } else if (lex.is("INTO")) {
                into = true;
            } else if (lex.is("INSERT") || lex.is("REPLACE")) {
                insertWord = true;
            }
            functionName = lex.is("LAST_INSERT_ROWID") || lex.is("CHANGES");
        } else {
            if (functionName && lex.isPunct('(')) {
                flags |= Part.CALLS_FUNCTIONS;
            }
            functionName = false;
        }
    }

    private void withToken(boolean word) {
        if (lex.isPunct('(')) {
            depth++;
            afterClose = false;
        } else if (lex.isPunct(')')) {
            depth = Math.max(0, depth - 1);
            afterClose = depth == 0;
        } else if (word && depth == 0 && afterClose) {
            if (!(lex.is("AS") || lex.is("NOT") || lex.is("MATERIALIZED"))) {
                withMain = lex.upperWord();
            }
        } else if (depth == 0) {
            afterClose = false;
        }
    }

    /** {@code PRAGMA [schema.]name [= value | (value) | …]}, token by token. */
    private void pragmaToken() {
        switch (pragmaStep) {
            case 1:
                pragmaName = lex.upperName();
                pragmaStep = 2;
                break;
            case 2:
                if (lex.isPunct('.')) {
                    pragmaStep = 3;
                } else {
                    form();
                }
                break;
            case 3:
                pragmaSchema = pragmaName;
                pragmaName = lex.upperName();
                pragmaStep = 4;
                break;
            case 4:
                form();
                break;
            default:
                if (pragmaForm == Pragma.Form.CALLED && lex.isPunct(')')) {
                    valueEnd = lex.start();
                } else if (pragmaForm == Pragma.Form.ASSIGNED) {
                    valueEnd = lex.end();
                }
        }
    }

    private void form() {
        pragmaStep = 5;
        if (lex.isPunct('=') || lex.isPunct('(')) {
            pragmaForm = lex.isPunct('=') ? Pragma.Form.ASSIGNED : Pragma.Form.CALLED;
            valueStart = lex.end();
        } else {
            pragmaForm = Pragma.Form.OTHER;
        }
    }

    /**
     * Ends the current statement, if it has a token, at {@code stop} (its semicolon, or the end
     * of the text): it runs from its first token to there, white space at its end left out.
     */
    private void finish(int stop) {
        if (start < 0) {
            return;
        }
        int end = stop;
        while (end > start && Character.isWhitespace(sql.charAt(end - 1))) {
            end--;
        }
        Pragma pragma = pragma();
        String why = classify(pragma);
        if (keyword.equals("BEGIN") || keyword.equals("COMMIT") || keyword.equals("END")
                || keyword.equals("ROLLBACK") || keyword.equals("SAVEPOINT")
                || keyword.equals("RELEASE")) {
            flags |= Part.TRANSACTION_CONTROL;
        }
        parts.add(new Part(start, end, keyword, flags, why, pragma));
        start = -1;
    }

    private Pragma pragma() {
        if (pragmaStep != 2 && pragmaStep != 4 && pragmaStep != 5) {
            return null; // no name: SQLite rejects it
        }
        String value = valueStart >= 0 && valueEnd >= valueStart
                ? sql.substring(valueStart, valueEnd).strip() : null;
        return new Pragma(pragmaSchema == null ? null : PragmaTable.lower(pragmaSchema),
                PragmaTable.lower(pragmaName), pragmaForm == null ? Pragma.Form.BARE : pragmaForm,
                value);
    }

    /**
     * Sets the statement's flags and says why it may not run on a reader (null when it only
     * reads): every statement kind of SQLite's grammar is placed.
     */
    private String classify(Pragma pragma) {
        switch (keyword) {
            case "":
                return null; // not a statement SQLite knows: it fails to prepare
            case "SELECT":
            case "VALUES":
                flags |= Part.RETURNS_ROWS;
                return null;
            case "EXPLAIN":
                flags |= Part.RETURNS_ROWS;
                return explained(pragma);
            case "WITH":
                return with();
            case "PRAGMA":
                return pragma(pragma);
            case "INSERT":
            case "REPLACE":
                flags |= Part.INSERTS;
                return write();
            case "UPDATE":
            case "DELETE":
                return write();
            case "ATTACH":
                flags |= Part.ATTACH;
                return keyword;
            case "DETACH":
                flags |= Part.DETACH;
                return keyword;
            case "VACUUM":
                flags |= Part.VACUUM | (into ? Part.VACUUM_INTO : 0);
                return keyword;
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

    private String write() {
        flags |= Part.COUNTS_CHANGES;
        if ((flags & Part.RETURNING) != 0) {
            flags |= Part.RETURNS_ROWS;
        }
        return keyword;
    }

    private String with() {
        flags |= Part.COUNTS_CHANGES | (insertWord ? Part.INSERTS : 0);
        if (withMain != null && (withMain.equals("INSERT") || withMain.equals("UPDATE")
                || withMain.equals("DELETE") || withMain.equals("REPLACE"))) {
            if ((flags & Part.RETURNING) != 0) {
                flags |= Part.RETURNS_ROWS;
            }
            return "WITH … " + withMain;
        }
        flags |= Part.RETURNS_ROWS; // SELECT, VALUES, or something SQLite will reject
        return null;
    }

    /**
     * {@code EXPLAIN [QUERY PLAN] <statement>} runs nothing of the statement, only prepares it.
     * But SQLite applies many pragma assignments while it prepares them ({@code query_only},
     * {@code cache_size}, {@code busy_timeout}, even the process-wide {@code soft_heap_limit}),
     * so an explained pragma assignment is refused as the assignment itself; a pragma that acts
     * when named acts only when run, so explaining it is a read.
     */
    private String explained(Pragma pragma) {
        if (explain != 4 || !"PRAGMA".equals(main)) {
            return null;
        }
        String why = pragmaRefusal(pragma);
        return why != null && why.startsWith("a pragma assignment") ? "EXPLAIN of " + why : null;
    }

    private String pragma(Pragma pragma) {
        PragmaTable.Entry entry = pragma == null ? null : pragma.entry();
        if (entry != null && entry.reports() && (pragma.form() == Pragma.Form.BARE
                || entry.use() == PragmaTable.Use.READ
                || entry.use() == PragmaTable.Use.ACTION)) {
            flags |= Part.RETURNS_ROWS;
        }
        return pragmaRefusal(pragma);
    }

    /**
     * Why a pragma statement is no read: an assignment ({@code PRAGMA x = v}, or {@code x(v)}
     * unless the argument only selects what to report), a pragma that acts when named, or a form
     * that is no plain read.
     */
    private static String pragmaRefusal(Pragma pragma) {
        if (pragma == null) {
            return null;
        }
        PragmaTable.Entry entry = pragma.entry();
        String shown = pragma.name();
        switch (pragma.form()) {
            case BARE:
                return entry != null && entry.use() == PragmaTable.Use.ACTION
                        ? "PRAGMA " + shown : null;
            case ASSIGNED:
                return "a pragma assignment (PRAGMA " + shown + " = …)";
            case CALLED:
                return entry != null && entry.selects() ? null
                        : "a pragma assignment (PRAGMA " + shown + "(…))";
            default:
                return "PRAGMA " + shown + " in a form that is not a plain read";
        }
    }
}

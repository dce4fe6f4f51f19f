package dev.lanes.internal.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Generates hostile SQL texts for the guard fuzz tests: statements of every kind SQLite knows
 * (reads, writes, DDL, pragma reads and assignments in every spelling, {@code ATTACH}, {@code
 * VACUUM INTO}, transaction control in any case and with case-folding traps, {@code CREATE
 * TRIGGER … BEGIN … END} bodies with {@code CASE … END} inside, {@code EXPLAIN} prefixes, the
 * driver's {@code backup}/{@code restore} commands), literals and quoted names that hold
 * keywords, semicolons and comment markers, numbers and parameters in SQLite's odd forms,
 * unicode and NULs, joined into multi-statement texts with comments and unusual white space in
 * every gap between tokens.
 *
 * <p>A text is kept as its pieces (tokens and the gaps between them), so a failing text can be
 * {@linkplain #shrink shrunk} by dropping pieces. Deterministic for a seed; not thread-safe.
 */
public final class HostileSql {
    /** The savepoint names texts use; the oracle looks for exactly these. */
    public static final List<String> SAVEPOINT_NAMES = List.of("a", "b", "sp");

    private final SplittableRandom random;
    /** Where a driver {@code backup to} command would write, so a test can see it did not. */
    private final String backupTarget;

    public HostileSql(long seed, String backupTarget) {
        this.random = new SplittableRandom(seed);
        this.backupTarget = backupTarget;
    }

    /** One generated text, as the pieces it was joined from. */
    public record Text(List<String> pieces) {
        public String sql() {
            return String.join("", pieces);
        }

        @Override
        public String toString() {
            return printable(sql());
        }
    }

    /** {@code sql} with control characters and non-ASCII shown as Java escapes. */
    public static String printable(String sql) {
        StringBuilder b = new StringBuilder();
        for (char c : sql.toCharArray()) {
            if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ texts

    /** A text of one to four statements of any kind, hostile gaps included. */
    public Text any() {
        List<String> pieces = new ArrayList<>();
        if (random.nextInt(12) == 0) {
            pieces.add(driverCommand()); // the driver looks only at the very first characters
            if (random.nextBoolean()) {
                return new Text(pieces);
            }
            pieces.add(";");
        }
        int statements = 1 + random.nextInt(4);
        for (int i = 0; i < statements; i++) {
            if (i > 0 || random.nextInt(6) == 0) {
                pieces.add(gap(true));
                pieces.add(random.nextInt(10) == 0 ? ";;" : ";");
            }
            pieces.add(gap(true));
            addTokens(pieces, anyStatement(), true);
        }
        ending(pieces, true);
        return new Text(pieces);
    }

    /** A text of one to three plain reads, with comments and keyword-laden literals. */
    public Text plainRead() {
        List<String> pieces = new ArrayList<>();
        int statements = 1 + random.nextInt(3);
        for (int i = 0; i < statements; i++) {
            if (i > 0) {
                pieces.add(gap(false));
                pieces.add(";");
            }
            pieces.add(gap(false));
            addTokens(pieces, read(), false);
        }
        ending(pieces, false);
        return new Text(pieces);
    }

    private void addTokens(List<String> pieces, List<String> tokens, boolean hostile) {
        for (int i = 0; i < tokens.size(); i++) {
            if (i > 0) {
                pieces.add(gap(hostile));
            }
            pieces.add(tokens.get(i));
        }
    }

    private void ending(List<String> pieces, boolean hostile) {
        switch (random.nextInt(hostile ? 8 : 6)) {
            case 0:
                pieces.add(";");
                break;
            case 1:
                pieces.add(" -- the end; COMMIT");
                break;
            case 2:
                pieces.add(" /* unterminated; COMMIT");
                break;
            case 3:
                pieces.add(";\n-- trailing\n");
                break;
            case 6:
                pieces.add("\0; COMMIT; DELETE FROM t");
                break;
            case 7:
                pieces.add(";" + gap(true) + "END");
                break;
            default:
                break;
        }
    }

    /** What may stand between two tokens. */
    private String gap(boolean hostile) {
        int n = random.nextInt(hostile ? 44 : 30);
        if (n < 16) {
            return " ";
        }
        switch (n) {
            case 16: return "\n";
            case 17: return "\t";
            case 18: return "\r\n";
            case 19: return "\f";
            case 20: return "  ";
            case 21: return "/* c */";
            case 22: return " /* COMMIT; END; */ ";
            case 23: return "/**/";
            case 24: return "/*/ ; ROLLBACK */";
            case 25: return " -- ; COMMIT\n";
            case 26: return "--\n";
            case 27: return " /* ' \" ` [ */ ";
            case 28: return " -- /* \n";
            case 29: return "/* -- */ ";
            case 30: return "\u000b"; // a vertical tab: no space to SQLite
            case 31: return "\u00a0"; // an identifier character to SQLite
            case 32: return "\0";
            case 33: return "\u2028";
            case 34: return "";
            case 35: return " /* unterminated; COMMIT";
            case 36: return "-- no newline; COMMIT";
            case 37: return "--'\n"; // glued to the token before it, a quote inside
            case 38: return "/*'*/";
            case 39: return "--\"\n";
            default: return " ";
        }
    }

    // ------------------------------------------------------------------ statements

    private List<String> anyStatement() {
        int n = random.nextInt(20);
        if (n < 5) {
            return read();
        }
        if (n < 9) {
            return write();
        }
        if (n < 11) {
            return pragmaChange();
        }
        if (n < 15) {
            return transactionControl();
        }
        if (n < 16) {
            return trigger();
        }
        if (n < 17) {
            return outside();
        }
        if (n < 18) {
            return explain(anyStatement(), true);
        }
        return maintenance();
    }

    /** A statement that only reads. */
    public List<String> read() {
        switch (random.nextInt(10)) {
            case 0:
                return List.of(kw("VALUES"), "(", expr(), ")");
            case 1:
                return concat(List.of(kw("WITH")), random.nextBoolean() ? List.of(kw("RECURSIVE"))
                        : List.of(), List.of("c", "(", "x", ")", kw("AS")), materialized(),
                        List.of("(", kw("SELECT"), expr(), ")", kw("SELECT"), "x", kw("FROM"),
                                "c"));
            case 2:
                return pragmaRead();
            case 3:
                return List.of(kw("SELECT"), "*", kw("FROM"), "pragma_table_info", "(", "'t'",
                        ")");
            case 4: // EXPLAIN runs nothing of what it explains, a write included
                return explain(random.nextBoolean() ? read() : write(), false);
            case 5:
                return List.of(kw("SELECT"), "body", kw("FROM"), "f", kw("WHERE"), "f",
                        kw("MATCH"), "'x'");
            default:
                List<String> s = new ArrayList<>(List.of(kw("SELECT"), expr()));
                if (random.nextBoolean()) {
                    s.add(kw("AS"));
                    s.add(alias());
                }
                if (random.nextBoolean()) {
                    s.addAll(List.of(",", expr()));
                }
                if (random.nextBoolean()) {
                    s.addAll(List.of(kw("FROM"), "t"));
                    if (random.nextBoolean()) {
                        s.addAll(List.of(kw("WHERE"), "id", ">", number()));
                    }
                    if (random.nextBoolean()) {
                        s.addAll(List.of(kw("ORDER"), kw("BY"), "1", kw("LIMIT"), "3"));
                    }
                }
                return s;
        }
    }

    private List<String> materialized() {
        switch (random.nextInt(4)) {
            case 0: return List.of(kw("MATERIALIZED"));
            case 1: return List.of(kw("NOT"), kw("MATERIALIZED"));
            default: return List.of();
        }
    }

    private List<String> pragmaRead() {
        String name = pick("user_version", "application_id", "schema_version", "journal_mode",
                "query_only", "cache_size", "foreign_keys", "page_count", "freelist_count",
                "data_version", "integrity_check", "quick_check", "table_list", "database_list");
        switch (random.nextInt(5)) {
            case 0: return List.of(kw("PRAGMA"), "main", ".", pragmaName(name));
            case 1: return List.of(kw("PRAGMA"), pragmaName("table_info"), "(", "t", ")");
            case 2: return List.of(kw("PRAGMA"), pragmaName("index_list"), "(", "'t'", ")");
            default: return List.of(kw("PRAGMA"), pragmaName(name));
        }
    }

    private List<String> write() {
        switch (random.nextInt(14)) {
            case 0:
                return concat(List.of(kw("INSERT"), kw("INTO"), "t", "(", "v", ")", kw("VALUES"),
                        "(", expr(), ")"), returning());
            case 1:
                return List.of(kw("INSERT"), kw("OR"), pick("REPLACE", "IGNORE", "ROLLBACK",
                        "ABORT"), kw("INTO"), "t", "(", "v", ")", kw("SELECT"), expr());
            case 2:
                return List.of(kw("INSERT"), kw("INTO"), "t", "(", "id", ",", "v", ")",
                        kw("VALUES"), "(", "1", ",", expr(), ")", kw("ON"), kw("CONFLICT"), "(",
                        "id", ")", kw("DO"), kw("UPDATE"), kw("SET"), "v", "=", expr());
            case 3:
                return List.of(kw("REPLACE"), kw("INTO"), "t", "(", "id", ",", "v", ")",
                        kw("VALUES"), "(", "1", ",", expr(), ")");
            case 4:
                return concat(List.of(kw("UPDATE"), "t", kw("SET"), "v", "=", expr(),
                        kw("WHERE"), "id", "=", "1"), returning());
            case 5:
                return concat(List.of(kw("DELETE"), kw("FROM"), "t", kw("WHERE"), "id", "=",
                        number()), returning());
            case 6:
                return concat(List.of(kw("WITH"), "c", "(", "x", ")", kw("AS"), "(", kw("SELECT"),
                        expr(), ")"), withMain());
            case 7:
                return List.of(kw("CREATE"), random.nextBoolean() ? kw("TEMP") : kw("TABLE"),
                        random.nextBoolean() ? kw("TABLE") : "", "z" + random.nextInt(3), "(", "a",
                        ")");
            case 8:
                return List.of(kw("CREATE"), kw("INDEX"), "zi", kw("ON"), "t", "(", "v", ")");
            case 9:
                return List.of(kw("CREATE"), kw("VIEW"), "zv", kw("AS"), kw("SELECT"), expr());
            case 10:
                return List.of(kw("DROP"), pick("TABLE", "VIEW", "INDEX"), kw("IF"), kw("EXISTS"),
                        pick("u", "w", "t_v"));
            case 11:
                return List.of(kw("ALTER"), kw("TABLE"), "u", kw("ADD"), kw("COLUMN"), "z");
            case 12:
                return List.of(kw("INSERT"), kw("INTO"), "f", "(", "f", ")", kw("VALUES"), "(",
                        "'optimize'", ")");
            default:
                return List.of(kw("INSERT"), kw("INTO"), "u", kw("DEFAULT"), kw("VALUES"));
        }
    }

    private List<String> returning() {
        return random.nextInt(3) == 0 ? List.of(kw("RETURNING"), pick("*", "id", "v")) : List.of();
    }

    private List<String> withMain() {
        switch (random.nextInt(3)) {
            case 0:
                return List.of(kw("INSERT"), kw("INTO"), "t", "(", "v", ")", kw("SELECT"), "x",
                        kw("FROM"), "c");
            case 1:
                return List.of(kw("UPDATE"), "t", kw("SET"), "v", "=", "(", kw("SELECT"), "x",
                        kw("FROM"), "c", ")");
            default:
                return List.of(kw("DELETE"), kw("FROM"), "t", kw("WHERE"), "id", kw("IN"), "(",
                        kw("SELECT"), "x", kw("FROM"), "c", ")");
        }
    }

    /** A pragma assignment, in every spelling SQLite accepts. */
    private List<String> pragmaChange() {
        String name = pick("user_version", "application_id", "cache_size", "query_only",
                "foreign_keys", "recursive_triggers", "journal_mode", "busy_timeout",
                "automatic_index", "temp_store", "synchronous");
        String value = name.equals("journal_mode") ? pick("DELETE", "WAL", "MEMORY", "'wal'")
                : pick("0", "1", "5", "-2000", "'1'", "ON", "off");
        List<String> target = random.nextInt(3) == 0
                ? List.of(pick("main", "\"main\"", "temp"), ".", pragmaName(name))
                : List.of(pragmaName(name));
        if (random.nextBoolean()) {
            return concat(List.of(kw("PRAGMA")), target, List.of("=", value));
        }
        if (random.nextInt(4) == 0) {
            return List.of(kw("PRAGMA"), pick("optimize", "wal_checkpoint", "incremental_vacuum",
                    "shrink_memory"));
        }
        return concat(List.of(kw("PRAGMA")), target, List.of("(", value, ")"));
    }

    private String pragmaName(String name) {
        switch (random.nextInt(6)) {
            case 0: return "\"" + name + "\"";
            case 1: return "[" + name + "]";
            case 2: return "`" + name + "`";
            case 3: return "'" + name + "'";
            default: return kw(name);
        }
    }

    private List<String> transactionControl() {
        String sp = savepointName();
        switch (random.nextInt(9)) {
            case 0:
                return concat(List.of(kw("BEGIN")), random.nextBoolean() ? List.of() : List.of(
                        pick("DEFERRED", "IMMEDIATE", "EXCLUSIVE")), random.nextBoolean()
                        ? List.of() : List.of(kw("TRANSACTION")));
            case 1:
                return random.nextBoolean() ? List.of(kw("COMMIT"))
                        : List.of(kw("COMMIT"), kw("TRANSACTION"));
            case 2:
                return random.nextBoolean() ? List.of(kw("END"))
                        : List.of(kw("END"), kw("TRANSACTION"));
            case 3:
                return List.of(kw("ROLLBACK"));
            case 4:
                return concat(List.of(kw("ROLLBACK")), random.nextBoolean() ? List.of()
                        : List.of(kw("TRANSACTION")), List.of(kw("TO")), random.nextBoolean()
                        ? List.of() : List.of(kw("SAVEPOINT")), List.of(sp));
            case 5:
                return List.of(kw("SAVEPOINT"), sp);
            case 6:
                return concat(List.of(kw("RELEASE")), random.nextBoolean() ? List.of()
                        : List.of(kw("SAVEPOINT")), List.of(sp));
            case 7:
                return List.of(trap(pick("COMMIT", "BEGIN", "ROLLBACK", "END", "SAVEPOINT")));
            default:
                return List.of(trap("RELEASE"), sp);
        }
    }

    private String savepointName() {
        String name = pick(SAVEPOINT_NAMES.toArray(new String[0]));
        switch (random.nextInt(6)) {
            case 0: return "\"" + name + "\"";
            case 1: return "[" + name + "]";
            case 2: return "'" + name + "'";
            case 3: return name.toUpperCase(java.util.Locale.ROOT);
            default: return name;
        }
    }

    /** {@code CREATE TRIGGER … BEGIN … END}, semicolons and {@code CASE … END} inside. */
    private List<String> trigger() {
        List<String> s = new ArrayList<>();
        if (random.nextInt(4) == 0) {
            s.add(kw("EXPLAIN"));
            if (random.nextBoolean()) {
                s.addAll(List.of(kw("QUERY"), kw("PLAN")));
            }
        }
        s.add(kw("CREATE"));
        if (random.nextBoolean()) {
            s.add(pick("TEMP", "TEMPORARY"));
        }
        s.add(kw("TRIGGER"));
        if (random.nextBoolean()) {
            s.addAll(List.of(kw("IF"), kw("NOT"), kw("EXISTS")));
        }
        s.addAll(List.of("tr" + random.nextInt(3), pick("AFTER", "BEFORE"), kw("INSERT"),
                kw("ON"), "t", kw("BEGIN")));
        int body = 1 + random.nextInt(3);
        for (int i = 0; i < body; i++) {
            switch (random.nextInt(5)) {
                case 0:
                    s.addAll(List.of(kw("UPDATE"), "t", kw("SET"), "v", "=", kw("CASE"),
                            kw("WHEN"), "new", ".", "v", kw("IS"), kw("NULL"), kw("THEN"),
                            "'END'", kw("ELSE"), "'x'", kw("END"), kw("WHERE"), "id", "=",
                            "new", ".", "id"));
                    break;
                case 1:
                    s.addAll(List.of(kw("INSERT"), kw("INTO"), "u", kw("VALUES"), "(", kw("CASE"),
                            "1", kw("WHEN"), "1", kw("THEN"), "2", kw("END"), ")"));
                    break;
                case 2:
                    s.addAll(List.of(kw("SELECT"), kw("CASE"), kw("WHEN"), "1", kw("THEN"),
                            "'COMMIT'", kw("END")));
                    break;
                case 3:
                    s.addAll(List.of(kw("DELETE"), kw("FROM"), "u", kw("WHERE"), "a", "=", "';'"));
                    break;
                default:
                    s.addAll(List.of(kw("SELECT"), expr()));
                    break;
            }
            s.add(";");
        }
        s.add(kw("END"));
        return s;
    }

    /** Statements that reach outside the database. */
    private List<String> outside() {
        switch (random.nextInt(5)) {
            case 0:
                return List.of(kw("ATTACH"), "':memory:'", kw("AS"), "m");
            case 1:
                return List.of(kw("ATTACH"), kw("DATABASE"), "'file:m2?mode=memory'", kw("AS"),
                        "m2");
            case 2:
                return List.of(kw("DETACH"), random.nextBoolean() ? kw("DATABASE") : "", "m");
            case 3:
                return List.of(kw("VACUUM"), kw("INTO"), "'file:copy?mode=memory'");
            default:
                return List.of(kw("VACUUM"), "main", kw("INTO"), "'file:copy2?mode=memory'");
        }
    }

    private List<String> maintenance() {
        return List.of(pick("ANALYZE", "REINDEX", "VACUUM"));
    }

    /** {@code EXPLAIN [QUERY PLAN]} of {@code statement}, or of a pragma assignment if allowed. */
    private List<String> explain(List<String> statement, boolean orPragmaChange) {
        List<String> s = new ArrayList<>(List.of(kw("EXPLAIN")));
        if (random.nextBoolean()) {
            s.addAll(List.of(kw("QUERY"), kw("PLAN")));
        }
        if (orPragmaChange && random.nextInt(3) == 0) {
            s.addAll(pragmaChange());
            return s;
        }
        s.addAll(statement);
        return s;
    }

    private String driverCommand() {
        String path = backupTarget.replace("'", "");
        switch (random.nextInt(5)) {
            case 0: return "backup to " + path;
            case 1: return "BACKUP main TO '" + path + "'";
            case 2: return "Restore from " + path;
            case 3: return "bac\u212Aup to " + path; // a Kelvin sign lower-cases to k
            default: return "backup main to \"" + path + "\"";
        }
    }

    // ------------------------------------------------------------------ pieces

    private String expr() {
        switch (random.nextInt(16)) {
            case 0: return number();
            case 1: return string();
            case 2: return pick("X'00ff'", "x'ABCD'", "X''", "X'ab''");
            case 3: return pick("?", "?2", ":a", "@a", "$a", "$a::b", "#a", "$a(';COMMIT;--')",
                    "@b(\";END;\")", "$a(')", ":b(\")", "@c(`)", "#d([)", "$e::f(')", "$(')",
                    ":a ('x')");
            case 4: return kw("CASE") + " " + kw("WHEN") + " 1 " + kw("THEN") + " 'END' "
                    + kw("ELSE") + " 'COMMIT' " + kw("END");
            case 5: return pick("length('x')", "char(0)", "upper('commit')", "zeroblob(4)",
                    "hex(randomblob(2))", "json('{\"a\":\";\"}')", "printf('%s', ';')",
                    "load_extension('x')", "sqlite_version()", "typeof(NULL)");
            case 6: return "(" + kw("SELECT") + " count(*) " + kw("FROM") + " t)";
            case 7: return expr() + " || " + expr();
            case 8: return "-" + number();
            case 9: return "'" + pick("é", "日本", "\uD83D\uDE00", "\u0000", "\uD800", "ı")
                    + "'";
            default: return random.nextBoolean() ? number() : string();
        }
    }

    private String number() {
        return pick("1", "42", "0x1F", "0xe", "1e5", "1.5e-3", ".5", "1_000", "0", "07", "1e",
                "0x", "1.", "0xe-1");
    }

    private String string() {
        return pick("'plain'", "'a; COMMIT; --'", "'it''s; END'", "'/* not a comment */'",
                "'-- not a comment'", "''", "'BEGIN; ROLLBACK'", "';'", "'\"'", "'`'", "'['",
                "'$a('", "'unterminated");
    }

    private String alias() {
        return pick("\"x; COMMIT\"", "[end]", "`begin`", "\"it\"\"s\"", "'alias; END'", "commit_",
                "x");
    }

    /** {@code word} in a random case: SQLite folds ASCII case only. */
    private String kw(String word) {
        if (word.isEmpty()) {
            return word;
        }
        switch (random.nextInt(4)) {
            case 0: return word.toLowerCase(java.util.Locale.ROOT);
            case 1: return word.toUpperCase(java.util.Locale.ROOT);
            default:
                StringBuilder b = new StringBuilder();
                for (char c : word.toCharArray()) {
                    b.append(random.nextBoolean() ? Character.toLowerCase(c)
                            : Character.toUpperCase(c));
                }
                return b.toString();
        }
    }

    /**
     * A transaction keyword with one letter swapped for a look-alike that Java's case folding
     * (but not SQLite's) would match, or that merely looks the same: an identifier to SQLite.
     */
    private String trap(String word) {
        switch (random.nextInt(5)) {
            case 0: return word.replaceFirst("I", "\u0131").replaceFirst("O", "o"); // dotless i
            case 1: return word.toLowerCase(java.util.Locale.ROOT).replace('i', '\u0130');
            case 2: return word.replace('E', '\u0415'); // Cyrillic E
            case 3: return word.replace('K', '\u212A').replace('S', '\u017F'); // Kelvin, long s
            default: return fullWidth(word);
        }
    }

    private static String fullWidth(String word) {
        StringBuilder b = new StringBuilder();
        for (char c : word.toCharArray()) {
            b.append((char) (c - 'A' + 0xFF21));
        }
        return b.toString();
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> p : parts) {
            for (String s : p) {
                if (!s.isEmpty()) {
                    all.add(s);
                }
            }
        }
        return all;
    }

    // ------------------------------------------------------------------ shrinking

    /**
     * The smallest text found, by dropping pieces one at a time (then pairs), for which {@code
     * fails} still holds; {@code text} itself when nothing smaller fails.
     */
    public static Text shrink(Text text, Predicate<String> fails) {
        List<String> pieces = new ArrayList<>(text.pieces());
        boolean smaller = true;
        while (smaller) {
            smaller = false;
            for (int i = pieces.size() - 1; i >= 0; i--) {
                List<String> candidate = new ArrayList<>(pieces);
                candidate.remove(i);
                if (failsQuietly(fails, String.join("", candidate))) {
                    pieces = candidate;
                    smaller = true;
                }
            }
        }
        return new Text(pieces);
    }

    private static boolean failsQuietly(Predicate<String> fails, String sql) {
        try {
            return fails.test(sql);
        } catch (RuntimeException e) {
            return false;
        }
    }
}

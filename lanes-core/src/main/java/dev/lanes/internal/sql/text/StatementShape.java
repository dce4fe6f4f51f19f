package dev.lanes.internal.sql.text;

import java.util.ArrayList;
import java.util.List;

/**
 * What the runtime knows of one SQL text before SQLite sees it, found in one pass of the {@link
 * SqlLexer} ({@link #of}): its statements with their ranges and, per statement, its first keyword,
 * whether it is transaction control, writes, returns rows, names a pragma (and which, with its
 * schema and value), attaches or detaches, is a {@code VACUUM [INTO]}; for the whole text, whether
 * SQLite finds no statement in it, whether it holds several, a NUL or a lone UTF-16 surrogate,
 * and whether the driver would take it for its own command. Every entry point finds the shape of
 * its text once ({@link Shapes}), admits it ({@link StatementPolicy}), and passes it on: routing,
 * telemetry and {@code RETURNING} detection read it instead of lexing again.
 *
 * <p>Statement ends follow {@code sqlite3_complete()}: a semicolon ends a statement, except inside
 * {@code CREATE [TEMP|TEMPORARY] TRIGGER}, whose body ends only at an {@code END} that directly
 * follows a semicolon and is itself followed by one ({@code ; END ;}); as SQLite's parser does
 * (and {@code sqlite3_complete()} does not), the rule also holds behind {@code EXPLAIN QUERY
 * PLAN}. Statements with nothing but white space and comments are no statements. The lexer reads
 * past a NUL, where SQLite stops, so a check sees every statement the text holds; a text with a
 * NUL is refused anyway ({@link StatementPolicy}).
 *
 * <p>Immutable and thread-safe.
 */
public final class StatementShape {
    /** The pragma a statement names. */
    public record Pragma(String schema, String name, Form form, String value) {
        /** How the pragma is written. */
        public enum Form {
            /** {@code PRAGMA name}: it reads the setting (or runs the action). */
            BARE,
            /** {@code PRAGMA name = value}. */
            ASSIGNED,
            /** {@code PRAGMA name(value)}: an assignment, or an argument that selects. */
            CALLED,
            /** Something else follows the name: no form SQLite reads as a plain read. */
            OTHER
        }

        /** Whether it is no plain read: an assignment, a call, or another form. */
        public boolean sets() {
            return form != Form.BARE;
        }

        /** The table's entry for it; null for a pragma the table does not place. */
        public PragmaTable.Entry entry() {
            return PragmaTable.of(name);
        }
    }

    /**
     * One statement of a text.
     *
     * @param start where its first token starts
     * @param end where it ends (exclusive): before its semicolon, or the end of the text, white
     *     space left out (a comment after its last token is part of it)
     * @param keyword its first keyword in ASCII upper case; empty when it starts otherwise
     * @param flags what it is (see the accessors)
     * @param notARead why it may not run on a reader, as a short phrase naming its kind (say
     *     {@code "INSERT"} or {@code "a pragma assignment (PRAGMA cache_size = …)"}); null
     *     when it only reads
     * @param pragma the pragma it names ({@code PRAGMA …}, also behind {@code EXPLAIN}); null for
     *     none
     */
    public record Part(int start, int end, String keyword, int flags, String notARead,
            Pragma pragma) {
        static final int TRANSACTION_CONTROL = 1;
        static final int RETURNS_ROWS = 1 << 1;
        static final int ATTACH = 1 << 2;
        static final int DETACH = 1 << 3;
        static final int VACUUM = 1 << 4;
        static final int VACUUM_INTO = 1 << 5;
        static final int RETURNING = 1 << 6;
        static final int INSERTS = 1 << 7;
        static final int COUNTS_CHANGES = 1 << 8;
        static final int CALLS_FUNCTIONS = 1 << 9;

        private boolean is(int flag) {
            return (flags & flag) != 0;
        }

        /** Transaction control: {@code BEGIN}, {@code COMMIT}, {@code ROLLBACK}, and so on. */
        public boolean transactionControl() {
            return is(TRANSACTION_CONTROL);
        }

        /** Whether it may change something, and so may not run on a reader. */
        public boolean writes() {
            return notARead != null;
        }

        /** Whether it returns rows (a query, a reading pragma, a write with {@code RETURNING}). */
        public boolean returnsRows() {
            return is(RETURNS_ROWS);
        }

        public boolean attach() {
            return is(ATTACH);
        }

        public boolean detach() {
            return is(DETACH);
        }

        /** {@code VACUUM}, in place or {@code INTO} a file. */
        public boolean vacuum() {
            return is(VACUUM);
        }

        /** {@code VACUUM [schema] INTO file}: it writes a file outside the database. */
        public boolean vacuumInto() {
            return is(VACUUM_INTO);
        }

        /** Whether it holds the word {@code RETURNING}. */
        public boolean returning() {
            return is(RETURNING);
        }
    }

    private final String sql;
    private final List<Part> parts;
    private final boolean noStatement;
    private final int nulAt;
    private final int loneSurrogateAt;
    private final int flags;
    /** The first statement's reason not to run on a reader; null when all read. */
    private final String notARead;

    StatementShape(String sql, List<Part> parts, boolean noStatement, int nulAt,
            int loneSurrogateAt) {
        this.sql = sql;
        this.parts = parts;
        this.noStatement = noStatement;
        this.nulAt = nulAt;
        this.loneSurrogateAt = loneSurrogateAt;
        int all = 0;
        String first = null;
        for (Part p : parts) {
            all |= p.flags;
            if (first == null) {
                first = p.notARead;
            }
        }
        this.flags = all;
        this.notARead = first;
    }

    /** Reads the shape of {@code sql} with the lexer, not cached; see {@link Shapes#of}. */
    public static StatementShape of(String sql) {
        return new ShapeReader(sql).read();
    }

    /** The text. */
    public String sql() {
        return sql;
    }

    /** Its statements, in order; empty when it holds none. */
    public List<Part> parts() {
        return parts;
    }

    /** The text of {@code part}, from its first token to its end. */
    public String text(Part part) {
        return sql.substring(part.start, part.end);
    }

    /**
     * The shape of its {@code i}-th statement alone, found from this one without another pass
     * (see {@link Shapes#statements}).
     */
    StatementShape statement(int i) {
        Part p = parts.get(i);
        String text = text(p);
        return new StatementShape(text, List.of(new Part(0, text.length(), p.keyword, p.flags,
                p.notARead, p.pragma)), false, -1, -1);
    }

    /** The texts of its statements, in order, for a caller that runs them one by one. */
    public List<String> statements() {
        List<String> texts = new ArrayList<>(parts.size());
        for (Part p : parts) {
            texts.add(text(p));
        }
        return texts;
    }

    /**
     * Whether SQLite finds no statement in it: nothing but white space, comments and semicolons
     * before its end or its first NUL. sqlite-jdbc fails such a text ("The prepared statement
     * has been finalized") and from then on cannot close the connection it ran on.
     */
    public boolean empty() {
        return noStatement;
    }

    /** Whether it holds more than one statement. */
    public boolean several() {
        return parts.size() > 1;
    }

    /** Where its first NUL is; -1 when it holds none. */
    public int nulAt() {
        return nulAt;
    }

    /** Where its first lone UTF-16 surrogate is; -1 when it holds none. */
    public int loneSurrogateAt() {
        return loneSurrogateAt;
    }

    /** The first keyword of its first statement, in ASCII upper case; empty when none. */
    public String firstKeyword() {
        return parts.isEmpty() ? "" : parts.get(0).keyword;
    }

    /** The keyword of its first statement that is transaction control; null when none is. */
    public String transactionControl() {
        if ((flags & Part.TRANSACTION_CONTROL) == 0) {
            return null;
        }
        for (Part p : parts) {
            if (p.transactionControl()) {
                return p.keyword;
            }
        }
        return null;
    }

    /** Why its first statement that may not run on a reader may not; null when all read. */
    public String notARead() {
        return notARead;
    }

    /** Whether it is a text SQLite runs and every statement of it only reads. */
    public boolean reads() {
        return !noStatement && notARead() == null;
    }

    /** Whether a statement of it returns rows. */
    public boolean returnsRows() {
        return (flags & Part.RETURNS_ROWS) != 0;
    }

    /** Whether a statement of it writes and returns rows ({@code RETURNING}). */
    public boolean returningWrite() {
        for (Part p : parts) {
            if (p.notARead != null && p.returning()) {
                return true;
            }
        }
        return false;
    }

    /** Whether it may insert a row: {@code INSERT} or {@code REPLACE}, also under {@code WITH}. */
    public boolean mayInsert() {
        return (flags & Part.INSERTS) != 0;
    }

    /**
     * Whether SQLite's {@code changes()} counts it: {@code INSERT}, {@code UPDATE}, {@code
     * DELETE}, {@code REPLACE}, also under {@code WITH}.
     */
    public boolean countsChanges() {
        return (flags & Part.COUNTS_CHANGES) != 0;
    }

    /** Whether it calls {@code last_insert_rowid()} or {@code changes()} (outside strings). */
    public boolean callsFunctions() {
        return (flags & Part.CALLS_FUNCTIONS) != 0;
    }

    /** Whether a statement of it is an in-place {@code VACUUM} (not {@code INTO} a file). */
    public boolean vacuumsInPlace() {
        for (Part p : parts) {
            if (p.vacuum() && !p.vacuumInto()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a statement of it is {@code ATTACH}. */
    public boolean attaches() {
        return (flags & Part.ATTACH) != 0;
    }

    /**
     * The command of the driver, not of SQLite, that the text would run through {@code
     * Statement.execute(String)} or {@code executeUpdate(String)}: {@code "backup"} for
     * sqlite-jdbc's {@code backup [db] to file}, {@code "restore"} for its {@code restore [db]
     * from file}, or null. The driver takes a text for one when its first six (seven) characters
     * lower-case to {@code backup} ({@code restore}); this answers for every text whose first
     * characters match case-insensitively in any way Java folds case, a superset. SQLite has no
     * statement that starts so, so no SQL is lost.
     */
    public String driverCommand() {
        if (sql.regionMatches(true, 0, "backup", 0, 6)) {
            return "backup";
        }
        if (sql.regionMatches(true, 0, "restore", 0, 7)) {
            return "restore";
        }
        return null;
    }

    /** A statement cut to one line of at most 80 characters, for messages. */
    public static String shorten(String sql) {
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return oneLine.length() > 80 ? oneLine.substring(0, 77) + "..." : oneLine;
    }

    /** Shapes are equal when their texts are: a shape is a function of its text alone. */
    @Override
    public boolean equals(Object o) {
        return o instanceof StatementShape && ((StatementShape) o).sql.equals(sql);
    }

    @Override
    public int hashCode() {
        return sql.hashCode();
    }

    @Override
    public String toString() {
        return "StatementShape[" + shorten(sql) + ", " + parts.size() + " statements]";
    }
}

package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.ReadOnlyClassifier;
import dev.lanes.internal.sql.SqlText;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the data source must know of one SQL text to route it, found once: a prepared statement
 * keeps its shape for every execution, so the lexer passes are not repeated per row read or
 * written. Immutable.
 *
 * @param sql the text
 * @param read whether it is one statement classified read-only (it may run on a reader, which
 *     does not classify it again)
 * @param returnsRows whether it returns rows: a read, or a write with {@code RETURNING}
 * @param mayInsert whether it may insert a row (its rowid is fetched with it in auto-commit mode)
 * @param countsChanges whether SQLite's {@code changes()} counts it: {@code INSERT}, {@code
 *     UPDATE}, {@code DELETE}, {@code REPLACE} (also under {@code WITH})
 * @param callsFunctions whether it may call {@code last_insert_rowid()} or {@code changes()}
 *     (see {@link ConnectionFunctions})
 */
record SqlShape(String sql, boolean read, boolean returnsRows, boolean mayInsert,
        boolean countsChanges, boolean callsFunctions) {
    /*
     * Shapes are also remembered by text, process-wide: Spring's JdbcTemplate and JdbcClient
     * prepare a new statement for every call, and finding its shape again (a lexer pass or three)
     * was a tenth of a JDBC read-then-write transaction's CPU. Invariants of SHAPES: thread-safe;
     * a shape is a pure function of its text, so a racing first computation of one text stores an
     * equal shape; texts longer than MAX_CACHED_LENGTH are not kept (a bulk literal must not stay
     * in memory); when it holds MAX_CACHED shapes it is emptied before the next one goes in, which
     * bounds it without an eviction order (what an application runs again fills it again).
     */
    private static final int MAX_CACHED = 1024;
    private static final int MAX_CACHED_LENGTH = 4096;
    private static final ConcurrentHashMap<String, SqlShape> SHAPES = new ConcurrentHashMap<>();

    /** The shape of {@code sql}: remembered when it was found before, else found now. */
    static SqlShape of(String sql) {
        SqlShape known = SHAPES.get(sql);
        if (known != null) {
            return known;
        }
        SqlShape shape = find(sql);
        if (sql.length() <= MAX_CACHED_LENGTH) {
            if (SHAPES.size() >= MAX_CACHED) {
                SHAPES.clear();
            }
            SHAPES.put(sql, shape);
        }
        return shape;
    }

    /** Finds the shape of {@code sql} with the lexer. */
    static SqlShape find(String sql) {
        // a text without a statement is not a read: the write path refuses it, with the reason
        boolean read = !SqlText.noStatement(sql) && ReadOnlyClassifier.refusal(sql) == null;
        String first = SqlText.firstKeyword(sql);
        boolean returnsRows = read ? !first.isEmpty() : SqlText.hasWord(sql, "RETURNING");
        boolean insert = first.equals("INSERT") || first.equals("REPLACE")
                || (first.equals("WITH") && (SqlText.hasWord(sql, "INSERT")
                        || SqlText.hasWord(sql, "REPLACE")));
        boolean counts = insert || first.equals("UPDATE") || first.equals("DELETE")
                || first.equals("WITH");
        return new SqlShape(sql, read, returnsRows, insert, counts,
                ConnectionFunctions.mentions(sql));
    }
}

package dev.lanes.internal.jdbc;

import dev.lanes.internal.sql.ReadOnlyClassifier;
import dev.lanes.internal.sql.SqlText;
import dev.lanes.internal.sql.TextMemo;

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
     * Shapes are remembered by text (TextMemo): Spring's JdbcTemplate and JdbcClient prepare a
     * new statement for every call, and finding its shape again (a lexer pass or three) was a
     * tenth of a JDBC read-then-write transaction's CPU.
     */
    private static final TextMemo<SqlShape> SHAPES = new TextMemo<>();

    /** The shape of {@code sql}: remembered when it was found before, else found now. */
    static SqlShape of(String sql) {
        return SHAPES.get(sql, SqlShape::find);
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

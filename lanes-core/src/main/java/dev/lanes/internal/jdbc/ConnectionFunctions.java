package dev.lanes.internal.jdbc;

import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.SqlLexer;
import dev.lanes.internal.sql.SqlText;
import dev.lanes.internal.sql.Statements;
import java.util.List;

/**
 * SQLite's connection-scoped functions {@code last_insert_rowid()} and {@code changes()} for a
 * {@link LogicalConnection}, which has no SQLite connection of its own in auto-commit mode: its
 * insert ran on the writer lane, and a following {@code SELECT last_insert_rowid()} would run on
 * a reader, which inserted nothing, and answer 0 (Hibernate's {@code SQLiteDialect} and MyBatis'
 * {@code selectKey} read an id that way). So the connection keeps what its own last write did,
 * as a SQLite connection would, and answers a query that is exactly one of these calls ({@code
 * SELECT last_insert_rowid()}, {@code SELECT changes() AS n;}) itself.
 *
 * <p>Both follow SQLite: an insert that inserted nothing leaves {@code last_insert_rowid()} as it
 * was; a statement that is no {@code INSERT}, {@code UPDATE}, {@code DELETE} or {@code REPLACE}
 * leaves {@code changes()} as it was. What a batch or an {@code INSERT … RETURNING} did is not
 * tracked (their rows and counts say it). Inside a pinned transaction the calls run on the
 * writer, the transaction's own connection.
 *
 * <p>Not thread-safe: owned by one connection, used by one thread at a time.
 */
final class ConnectionFunctions {
    private long lastInsertRowid;
    private long changes;

    /** Whether {@code sql} may insert a row, so that its rowid must be fetched with it. */
    static boolean mayInsert(String sql) {
        String first = SqlText.firstKeyword(sql);
        return first.equals("INSERT") || first.equals("REPLACE")
                || (first.equals("WITH") && (SqlText.hasWord(sql, "INSERT")
                        || SqlText.hasWord(sql, "REPLACE")));
    }

    /** Records what an auto-commit write did: its count, and its keys when they were fetched. */
    void wrote(String sql, int count, Statements.Update keys) {
        if (keys != null && keys.count() > 0) {
            lastInsertRowid = keys.lastInsertRowid();
        }
        switch (SqlText.firstKeyword(sql)) {
            case "INSERT":
            case "UPDATE":
            case "DELETE":
            case "REPLACE":
            case "WITH":
                changes = count;
                break;
            default:
                break; // DDL, pragmas: SQLite leaves changes() as it was
        }
    }

    /**
     * The result of {@code sql} when it only selects one of these functions, answered from this
     * connection's own writes; null for any other SQL.
     */
    ResultData answer(String sql) {
        SqlLexer lex = new SqlLexer(sql);
        if (!lex.next() || !lex.is("SELECT") || !lex.next()) {
            return null;
        }
        long value;
        if (lex.is("LAST_INSERT_ROWID")) {
            value = lastInsertRowid;
        } else if (lex.is("CHANGES")) {
            value = changes;
        } else {
            return null;
        }
        int from = lex.start();
        if (!lex.next() || !lex.isPunct('(') || !lex.next() || !lex.isPunct(')')) {
            return null;
        }
        String label = sql.substring(from, lex.end()); // SQLite labels an expression as written
        boolean more = lex.next();
        if (more && lex.is("AS")) {
            more = lex.next();
            if (!more) {
                return null;
            }
        }
        if (more && lex.kind() != SqlLexer.Kind.SEMICOLON) {
            String alias = alias(lex);
            if (alias == null) {
                return null;
            }
            label = alias;
            more = lex.next();
        }
        if (more && lex.kind() == SqlLexer.Kind.SEMICOLON) {
            more = lex.next();
        }
        if (more) {
            return null; // FROM, WHERE, another column: SQLite's to answer
        }
        List<String> column = List.of(label);
        return new ResultData(column, column, List.of(""),
                List.of(Row.of(column, new Object[] {value})));
    }

    /** A column alias as SQLite reads it: a word, or a quoted name without its quotes. */
    private static String alias(SqlLexer lex) {
        String text = lex.text();
        switch (lex.kind()) {
            case WORD:
                return text;
            case QUOTED:
            case STRING:
                char open = text.charAt(0);
                char close = open == '[' ? ']' : open;
                if (text.length() < 2 || text.charAt(text.length() - 1) != close
                        || open == 'x' || open == 'X') {
                    return null;
                }
                String inner = text.substring(1, text.length() - 1);
                return open == '[' ? inner
                        : inner.replace(String.valueOf(close) + close, String.valueOf(close));
            default:
                return null;
        }
    }
}

package dev.lanes.internal.jdbc;

import dev.lanes.Row;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.text.SqlLexer;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.sql.Statements;
import java.util.Collections;
import java.util.List;

/**
 * SQLite's connection-scoped functions {@code last_insert_rowid()} and {@code changes()} for a
 * {@link LogicalConnection}, which has no SQLite connection of its own in auto-commit mode: its
 * insert ran on the writer lane, and a following {@code SELECT last_insert_rowid()} would run on
 * a reader, which inserted nothing, and answer 0 (Hibernate's {@code SQLiteDialect} and MyBatis'
 * {@code selectKey} read an id that way, jOOQ with {@code select id from t where _rowid_ =
 * last_insert_rowid()}). So the connection keeps what its own last write did, as a SQLite
 * connection would: a query that is exactly one of these calls ({@code SELECT
 * last_insert_rowid()}, {@code SELECT changes() AS n;}) it answers itself; in any other query it
 * reads, each call is replaced by its value before the query runs on a reader. Writes keep the
 * calls as written (they run on the lane's connection).
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

    /** Records what an auto-commit write did: its count, and its keys when they were fetched. */
    void wrote(StatementShape shape, int count, Statements.Update keys) {
        if (keys != null && keys.count() > 0) {
            lastInsertRowid = keys.lastInsertRowid();
        }
        if (shape.countsChanges()) {
            changes = count; // DDL, pragmas: SQLite leaves changes() as it was
        }
    }

    /**
     * The shape's SQL with each call of these functions (outside strings, comments and quoted names)
     * replaced by this connection's value; the SQL itself when it calls neither.
     */
    String substituted(StatementShape shape) {
        String sql = shape.sql();
        if (!shape.callsFunctions()) {
            return sql;
        }
        StringBuilder out = null;
        int copied = 0;
        SqlLexer lex = new SqlLexer(sql);
        // a call is three tokens: the name, '(' and ')'; step counts how many of them were seen
        int step = 0;
        int callStart = 0;
        long value = 0;
        while (lex.next()) {
            if (step == 1 && lex.isPunct('(')) {
                step = 2;
            } else if (step == 2 && lex.isPunct(')')) {
                if (out == null) {
                    out = new StringBuilder(sql.length());
                }
                out.append(sql, copied, callStart).append(value);
                copied = lex.end();
                step = 0;
            } else if (lex.is("LAST_INSERT_ROWID") || lex.is("CHANGES")) {
                step = 1;
                callStart = lex.start();
                value = lex.is("CHANGES") ? changes : lastInsertRowid;
            } else {
                step = 0;
            }
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /**
     * The result of the shape's SQL when it only selects one of these functions, answered from this
     * connection's own writes; null for any other SQL.
     */
    ResultData answer(StatementShape shape) {
        String sql = shape.sql();
        if (!shape.callsFunctions()) {
            return null;
        }
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
        return new ResultData(column, column, Collections.singletonList(null), // an expression
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

package dev.lanes.spi;

import dev.lanes.internal.sql.text.StatementShape;

/**
 * How Lanes reads an SQL text, for an engine that sends texts whole: the statements SQLite finds
 * in it, by the one lexer Lanes admits every statement with (strings, quoted names, comments,
 * trigger bodies and blank statements placed as SQLite places them). An engine whose server runs
 * a text's statements one after the other, stopping at the first failure, tells by it whether a
 * failure may have left earlier statements run.
 *
 * <p>Stateless and thread-safe.
 */
public final class SqlStatements {
    private SqlStatements() {}

    /**
     * The number of statements in {@code sql}: 0 for a text of white space, comments and
     * semicolons alone, 1 for one statement whatever follows it of those.
     */
    public static int count(String sql) {
        return StatementShape.of(sql).parts().size();
    }
}

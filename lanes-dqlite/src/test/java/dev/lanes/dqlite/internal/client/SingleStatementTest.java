package dev.lanes.dqlite.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.spi.SqlStatements;
import org.junit.jupiter.api.Test;

/**
 * Whether an EXEC_SQL text is one statement, which decides whether its failure may have left
 * earlier statements run: the text as Lanes reads every statement ({@link SqlStatements}).
 */
class SingleStatementTest {
    private static boolean isSingleStatement(String sql) {
        return SqlStatements.count(sql) <= 1;
    }

    @Test
    void oneStatementWithTrailingSemicolonsBlanksAndComments() {
        assertThat(isSingleStatement("INSERT INTO t VALUES (1)")).isTrue();
        assertThat(isSingleStatement("  INSERT INTO t VALUES (1);  ;\n -- done\n /* really */ ")).isTrue();
        assertThat(isSingleStatement("")).isTrue();
        assertThat(isSingleStatement("COMMIT")).isTrue();
    }

    @Test
    void semicolonsInsideStringsIdentifiersAndCommentsDoNotSplit() {
        assertThat(isSingleStatement("INSERT INTO t VALUES ('a;b', 'it''s; fine')")).isTrue();
        assertThat(isSingleStatement("SELECT \"a;b\", `c;d`, [e;f] FROM t")).isTrue();
        assertThat(isSingleStatement("SELECT 1 -- ; SELECT 2\n")).isTrue();
        assertThat(isSingleStatement("SELECT /* ; */ 1")).isTrue();
    }

    @Test
    void twoStatementsAreTwo() {
        assertThat(isSingleStatement("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")).isFalse();
        assertThat(isSingleStatement("BEGIN;INSERT INTO t VALUES (1);COMMIT")).isFalse();
        assertThat(isSingleStatement("SELECT ';'; SELECT 2")).isFalse();
        // a trigger body's semicolons are its own: one statement, as SQLite prepares it
        assertThat(isSingleStatement(
                "CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; END")).isTrue();
        assertThat(isSingleStatement("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET "
                + "n = n + 1; END; INSERT INTO t VALUES (1)")).isFalse();
    }
}

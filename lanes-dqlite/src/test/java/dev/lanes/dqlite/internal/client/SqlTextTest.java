package dev.lanes.dqlite.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlTextTest {
    @Test
    void oneStatementWithTrailingSemicolonsBlanksAndComments() {
        assertThat(SqlText.isSingleStatement("INSERT INTO t VALUES (1)")).isTrue();
        assertThat(SqlText.isSingleStatement("  INSERT INTO t VALUES (1);  ;\n -- done\n /* really */ ")).isTrue();
        assertThat(SqlText.isSingleStatement("")).isTrue();
        assertThat(SqlText.isSingleStatement("COMMIT")).isTrue();
    }

    @Test
    void semicolonsInsideStringsIdentifiersAndCommentsDoNotSplit() {
        assertThat(SqlText.isSingleStatement("INSERT INTO t VALUES ('a;b', 'it''s; fine')")).isTrue();
        assertThat(SqlText.isSingleStatement("SELECT \"a;b\", `c;d`, [e;f] FROM t")).isTrue();
        assertThat(SqlText.isSingleStatement("SELECT 1 -- ; SELECT 2\n")).isTrue();
        assertThat(SqlText.isSingleStatement("SELECT /* ; */ 1")).isTrue();
    }

    @Test
    void twoStatementsAreTwo() {
        assertThat(SqlText.isSingleStatement("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")).isFalse();
        assertThat(SqlText.isSingleStatement("BEGIN;INSERT INTO t VALUES (1);COMMIT")).isFalse();
        assertThat(SqlText.isSingleStatement("SELECT ';'; SELECT 2")).isFalse();
        // a trigger body has semicolons of its own: counted as several, the safe side
        assertThat(SqlText.isSingleStatement(
                "CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; END")).isFalse();
    }
}

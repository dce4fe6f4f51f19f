package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a text's shape says of its statements: their ends, transaction control, none at all. */
class StatementShapeTest {

    @Test
    void noStatementIsATextSqliteReadsNoTokenInBeforeItsEndOrFirstNul() {
        for (String empty : new String[] {"", " \n\t\f\r", "-- c", "/* unterminated", ";;",
                " ; -- x\n;", "\0SELECT 1", "/* a */ \0 DELETE FROM t", "-- c; SELECT 1\0\n"}) {
            assertThat(Texts.noStatement(empty)).as("[%s]", empty).isTrue();
        }
        for (String some : new String[] {"SELECT 1", "; SELECT 1", "-- c\nSELECT 1",
                "/* a */ x", "SELECT 1\0", "\u00a0", "\u2028SELECT 1", "'", "?"}) {
            assertThat(Texts.noStatement(some)).as("[%s]", some).isFalse();
        }
    }

    @Test
    void firstKeywordSkipsLeadingWhiteSpaceAndBothCommentStyles() {
        assertThat(Texts.firstKeyword("/* x */ -- y\n  commit")).isEqualTo("COMMIT");
        assertThat(Texts.firstKeyword("\n\t  savepoint a")).isEqualTo("SAVEPOINT");
        assertThat(Texts.firstKeyword("/* multi\n line; commit */select 1")).isEqualTo("SELECT");
        assertThat(Texts.firstKeyword("-- only a comment")).isEmpty();
        assertThat(Texts.firstKeyword("")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "COMMIT", "commit", "Commit Transaction", "END", "end transaction", "ROLLBACK",
        "ROLLBACK TO a", "SAVEPOINT a", "RELEASE a", "RELEASE SAVEPOINT a", "BEGIN",
        "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE TRANSACTION", "/* x */ -- y\n  commit",
        "  SAVEPOINT a", "SELECT 1; COMMIT", "SELECT ';'; END", "INSERT INTO t VALUES (1);commit;",
        ";commit", "-- a\n;\n/* b */ BEGIN"
    })
    void transactionControlIsFoundInAnyStatementOfTheText(String sql) {
        assertThat(Texts.transactionControl(sql)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 'commit'",
        "INSERT INTO t(v) VALUES ('a; commit')",
        "INSERT INTO t(v) VALUES ('it''s; commit; begin')",
        "SELECT \"commit\" FROM t",
        "SELECT [begin], `end` FROM t",
        "SELECT 1 -- ; commit",
        "SELECT 1 /* ; commit */",
        "UPDATE t SET v = 'ROLLBACK'",
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); UPDATE u SET x = 2; END",
        "CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; SELECT 3",
        "begin_date",
        "SELECT 1; SELECT 2",
        "PRAGMA journal_mode",
        ""
    })
    void textThatOnlyMentionsTransactionWordsIsNotTransactionControl(String sql) {
        assertThat(Texts.transactionControl(sql)).isNull();
    }

    @Test
    void transactionControlNamesTheOffendingKeyword() {
        assertThat(Texts.transactionControl("SELECT 1; rollback to a")).isEqualTo("ROLLBACK");
        assertThat(Texts.transactionControl("  release a")).isEqualTo("RELEASE");
    }

    @Test
    void splitSeparatesStatementsAndDropsEmptyOnes() {
        assertThat(Texts.split("SELECT 1; SELECT 2;")).containsExactly("SELECT 1", "SELECT 2");
        assertThat(Texts.split(" ; ;SELECT 1;; -- c\n; /* d */ ;")).containsExactly("SELECT 1");
        assertThat(Texts.split("")).isEmpty();
        assertThat(Texts.split("SELECT 1")).containsExactly("SELECT 1");
    }

    @Test
    void splitKeepsSemicolonsInsideLiteralsIdentifiersAndComments() {
        assertThat(Texts.split("INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`, [g;h]); SELECT 2"))
                .containsExactly("INSERT INTO t VALUES ('a;b', \"c;d\", `e;f`, [g;h])", "SELECT 2");
        assertThat(Texts.split("SELECT 'it''s;here'; SELECT 2"))
                .containsExactly("SELECT 'it''s;here'", "SELECT 2");
        assertThat(Texts.split("SELECT 1 -- not; the end\n; SELECT 2"))
                .containsExactly("SELECT 1 -- not; the end", "SELECT 2");
        assertThat(Texts.split("SELECT 1 /* ; */; SELECT 2"))
                .containsExactly("SELECT 1 /* ; */", "SELECT 2");
    }

    @Test
    void aTriggerBodyWithInnerSemicolonsIsOneStatement() {
        String trigger = "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
                + "  INSERT INTO log VALUES (new.id);\n"
                + "  UPDATE counts SET n = n + 1;\n"
                + "END";
        assertThat(Texts.split(trigger + "; SELECT 1")).containsExactly(trigger, "SELECT 1");
        String temp = "create temp trigger tr before delete on t begin select raise(abort, 'no'); end";
        assertThat(Texts.split(temp + ";" + temp + ";")).containsExactly(temp, temp);
        String ifNotExists = "CREATE TRIGGER IF NOT EXISTS tr AFTER UPDATE ON t BEGIN DELETE FROM u; END";
        assertThat(Texts.split(ifNotExists + "; COMMIT"))
                .containsExactly(ifNotExists, "COMMIT");
    }

    @Test
    void aCaseEndInsideATriggerBodyDoesNotEndTheTrigger() {
        // sqlite3_complete() ends a trigger only at "END ;" that directly follows a ';'; an END
        // closing a CASE expression inside the body is not the trigger's end.
        String trigger = "CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
                + "UPDATE t SET v = CASE WHEN new.id > 1 THEN 'big' ELSE 'small' END; "
                + "INSERT INTO log VALUES (new.id); END";
        assertThat(Texts.split(trigger + "; SELECT 1")).containsExactly(trigger, "SELECT 1");
        assertThat(Texts.transactionControl(trigger)).isNull();
    }

    @Test
    void aTableNamedTriggerIsNotATrigger() {
        assertThat(Texts.split("CREATE TABLE trigger_log(x); SELECT 1"))
                .containsExactly("CREATE TABLE trigger_log(x)", "SELECT 1");
        assertThat(Texts.split("CREATE TABLE \"trigger\"(x); COMMIT"))
                .containsExactly("CREATE TABLE \"trigger\"(x)", "COMMIT");
    }

    @Test
    void severalStatementsCountsOnlyStatementsNotSemicolonsInsideThem() {
        assertThat(Texts.severalStatements("SELECT 1")).isFalse();
        assertThat(Texts.severalStatements("SELECT 1;")).isFalse();
        assertThat(Texts.severalStatements("SELECT ';'; -- c")).isFalse();
        assertThat(Texts.severalStatements("SELECT 1; SELECT 2")).isTrue();
        assertThat(Texts.severalStatements(
                "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END")).isFalse();
    }

    @Test
    void shortenFoldsWhiteSpaceAndCutsLongStatementsForMessages() {
        assertThat(Texts.shorten("  SELECT\n\t1  ")).isEqualTo("SELECT 1");
        String longSql = "SELECT " + "x, ".repeat(40) + "y FROM t";
        assertThat(Texts.shorten(longSql)).hasSize(80).endsWith("...")
                .startsWith("SELECT x, x,");
        assertThat(Texts.shorten("x".repeat(80))).isEqualTo("x".repeat(80));
    }
}

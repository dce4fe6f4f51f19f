package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * The defects the guard fuzzing found where the lexer read a text otherwise than SQLite's
 * tokenizer, each pinned against what SQLite itself does with the text (run with {@code
 * sqlite3_exec}, as {@code Statement.executeUpdate(String)} runs it).
 */
class SqlLexerSqliteAgreementTest {
    @TempDir Path dir;
    SQLiteConnection c;

    @BeforeEach
    void open() throws SQLException {
        c = (SQLiteConnection) new SQLiteConfig().createConnection("jdbc:sqlite:"
                + dir.resolve("agree.db"));
        c.getDatabase()._exec("CREATE TABLE t(v); INSERT INTO t VALUES (1), (2)");
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    long rows() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aTclVariableSuffixHidingAQuoteNoLongerHidesTheStatementsAfterIt() throws SQLException {
        // SQLite reads $a(') as one parameter token: the suffix runs to the first ')'
        String sql = "SELECT $a(');DELETE FROM t;--')";
        c.getDatabase()._exec(sql);
        assertThat(rows()).as("SQLite ran the DELETE").isZero();
        assertThat(Texts.refusal(sql)).isEqualTo("DELETE");
        assertThat(Texts.transactionControl("SELECT @c(`);;ROLLBACK")).isEqualTo("ROLLBACK");
        assertThat(Texts.transactionControl("SELECT :b(\");COMMIT;--\")")).isEqualTo("COMMIT");
        assertThat(Texts.transactionControl("SELECT #d([);END;--]")).isEqualTo("END");
        assertThat(Texts.split("SELECT $a::b(x), 1; SELECT 2"))
                .containsExactly("SELECT $a::b(x), 1", "SELECT 2");
    }

    @Test
    void aTclVariableSuffixThatHoldsASemicolonIsOneToken() throws SQLException {
        String sql = "SELECT $a(;DELETE)";
        c.getDatabase()._exec(sql);
        assertThat(rows()).as("one statement: SQLite ran no DELETE").isEqualTo(2);
        assertThat(Texts.split(sql)).containsExactly(sql);
        assertThat(Texts.refusal(sql)).isNull();
    }

    @Test
    void aHexNumberGluedToADoubleDashEndsBeforeTheComment() throws SQLException {
        // 0xe is a whole hex number to SQLite, so -- starts a comment and ' is inside it
        String sql = "SELECT 0xe--'\n;DELETE FROM t;--'";
        c.getDatabase()._exec(sql);
        assertThat(rows()).as("SQLite ran the DELETE").isZero();
        assertThat(Texts.refusal(sql)).isEqualTo("DELETE");
        assertThat(Texts.transactionControl("SELECT 0xe--'\n;COMMIT;--'")).isEqualTo("COMMIT");
        assertThat(tokens("0xe-1 1e5 1e 1.5e-3 .5 1_000 0x1F 0x")).containsExactly("0xe", "-",
                "1", "1e5", "1e", "1.5e-3", ".5", "1_000", "0x1F", "0x");
    }

    @Test
    void aBlobEndsAtItsFirstQuoteWithoutDoubling() {
        assertThat(tokens("X'ab''x'")).containsExactly("X'ab'", "'x'");
        assertThat(tokens("x'' 'y'")).containsExactly("x''", "'y'");
    }

    @Test
    void aVerticalTabIsNoSpaceToSqlite() throws SQLException {
        try {
            c.getDatabase()._exec("\u000bSELECT 1");
            throw new AssertionError("SQLite accepted a vertical tab as white space");
        } catch (SQLException expected) {
            assertThat(expected.getMessage()).contains("unrecognized token");
        }
        assertThat(Texts.firstKeyword("\u000bCOMMIT")).isEmpty();
        assertThat(Texts.firstKeyword("\f\r\n\t COMMIT")).isEqualTo("COMMIT");
    }

    @Test
    void explainQueryPlanOfATriggerIsOneStatementAsSqliteParsesIt() throws SQLException {
        String trigger = "EXPLAIN QUERY PLAN CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
                + "SELECT 1; END";
        c.getDatabase()._exec(trigger); // one statement to SQLite's parser
        assertThat(Texts.split(trigger + "; COMMIT")).containsExactly(trigger, "COMMIT");
        assertThat(Texts.transactionControl(trigger)).isNull();
        assertThat(Texts.transactionControl("EXPLAIN CREATE TEMP TRIGGER tr AFTER INSERT ON "
                + "t BEGIN SELECT CASE WHEN 1 THEN 2 END; END")).isNull();
    }

    @Test
    void explainOfAPragmaAssignmentIsRefusedBecauseSqliteAppliesItWhileItPrepares()
            throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA query_only=1");
            s.execute("EXPLAIN PRAGMA query_only=0");
            try (ResultSet rs = s.executeQuery("PRAGMA query_only")) {
                rs.next();
                assertThat(rs.getInt(1)).as("EXPLAIN turned query_only off").isZero();
            }
        }
        assertThat(Texts.refusal("EXPLAIN PRAGMA query_only=0"))
                .isEqualTo("EXPLAIN of a pragma assignment (PRAGMA query_only = …)");
        assertThat(Texts.refusal("explain query plan pragma main.cache_size(7)"))
                .startsWith("EXPLAIN of a pragma assignment");
        // what EXPLAIN never runs stays a read: a write, a pragma that acts when it runs
        assertThat(Texts.refusal("EXPLAIN DELETE FROM t")).isNull();
        assertThat(Texts.refusal("EXPLAIN QUERY PLAN PRAGMA optimize")).isNull();
        assertThat(Texts.refusal("EXPLAIN PRAGMA user_version")).isNull();
    }

    @Test
    void theDriversOwnCommandsAreFoundHoweverTheirFirstLettersAreCased() {
        assertThat(Texts.driverCommand("backup to /tmp/x.db")).isEqualTo("backup");
        assertThat(Texts.driverCommand("BACKUP main TO x")).isEqualTo("backup");
        assertThat(Texts.driverCommand("bac\u212Aup to x")).isEqualTo("backup"); // Kelvin k
        assertThat(Texts.driverCommand("Restore from x")).isEqualTo("restore");
        assertThat(Texts.driverCommand(" backup to x")).as("the driver looks at index 0 only")
                .isNull();
        assertThat(Texts.driverCommand("SELECT 'backup to x'")).isNull();
        assertThat(Texts.driverCommand("back")).isNull();
    }

    private static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        SqlLexer lex = new SqlLexer(sql);
        while (lex.next()) {
            out.add(lex.text());
        }
        return out;
    }
}

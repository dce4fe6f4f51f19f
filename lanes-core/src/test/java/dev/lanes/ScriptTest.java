package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Database#executeScript}: a multi-statement text run statement by statement on the
 * writer as one atomic request; comments, literals and quoted identifiers may hold semicolons, a
 * trigger body is one statement, and transaction control is refused before anything runs.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScriptTest {
    /**
     * Six statements. Every semicolon that does not end a statement hides in a comment, a
     * literal, a quoted identifier ("", [] and ``) or a trigger body, which also holds {@code
     * CASE … END;} and a literal {@code '; END;'}.
     */
    static final String SCHEMA = """
            -- schema v1; a semicolon in a line comment; COMMIT;
            /* a block comment; with COMMIT; and
               ROLLBACK; inside */
            CREATE TABLE "odd;name" (id INTEGER PRIMARY KEY, "v;al" TEXT, [br;acket] TEXT,
                `back;tick` TEXT);
            CREATE TABLE audit(id INTEGER PRIMARY KEY, note TEXT);
            INSERT INTO "odd;name"("v;al", [br;acket]) VALUES ('a;b; COMMIT; it''s', ';');
            CREATE TRIGGER odd_ai AFTER INSERT ON "odd;name" BEGIN
              INSERT INTO audit(note)
                VALUES (CASE WHEN new."v;al" LIKE '%;%' THEN 'semi;colon' ELSE 'plain' END);
              UPDATE audit SET note = note || '' WHERE id = CASE WHEN 1 THEN 0 ELSE 0 END;
              INSERT INTO audit(note) VALUES ('second; END; statement');
            END;
            INSERT INTO "odd;name"("v;al") VALUES ('x;y'); -- a trailing comment; still one
            INSERT INTO "odd;name"("v;al") VALUES ('plain')   /* no final semicolon */
            """;

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("script.db");
    }

    @Test
    void aScriptWithSemicolonsInCommentsLiteralsIdentifiersAndATriggerRunsWhole() {
        assertThat(db.executeScript(SCHEMA)).isEqualTo(6);

        assertThat(db.query("SELECT \"v;al\" AS v, [br;acket] AS b FROM \"odd;name\" ORDER BY id")
                .stream().map(r -> r.getString("v") + "|" + r.getString("b")))
                .containsExactly("a;b; COMMIT; it's|;", "x;y|null", "plain|null");
        // The trigger fired for the two rows inserted after it, with all three statements.
        assertThat(db.query("SELECT note FROM audit ORDER BY id").stream()
                .map(r -> r.getString("note")))
                .containsExactly("semi;colon", "second; END; statement",
                        "plain", "second; END; statement");
        assertThat(db.query("SELECT sql FROM sqlite_master WHERE name = 'odd_ai'").get(0)
                .getString("sql")).endsWith("END");
    }

    @Test
    void aScriptIsOneRequestAndOneCommit() {
        DatabaseDiagnostics before = db.diagnostics();

        assertThat(db.executeScript(SCHEMA)).isEqualTo(6);

        DatabaseDiagnostics after = db.diagnostics();
        assertThat(after.writer().counters().committed() - before.writer().counters().committed()).isEqualTo(1);
        assertThat(after.writer().counters().groupsCommitted() - before.writer().counters().groupsCommitted()).isEqualTo(1);
    }

    @Test
    void aFailingStatementRollsTheWholeScriptBack() {
        BatchFailedException e = catchThrowableOfType(BatchFailedException.class,
                () -> db.executeScript("""
                        CREATE TABLE s1(a);
                        INSERT INTO s1 VALUES (1);
                        INSERT INTO t(v) VALUES ('from-script');
                        INSERT INTO no_such_table VALUES (2);
                        INSERT INTO s1 VALUES (3);
                        """));

        assertThat(e).isNotNull();
        assertThat(e.failedIndex()).isEqualTo(3);
        assertThat(e.executed()).isEqualTo(3);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).isInstanceOf(SQLException.class).hasMessageContaining("no_such_table");
        assertThat(e.getMessage()).contains("script.db").contains("statement 3");

        assertThat(db.query("SELECT name FROM sqlite_master WHERE name = 's1'"))
                .as("the CREATE rolled back too").isEmpty();
        assertThat(countOf(db, "from-script")).isZero();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.executeScript("CREATE TABLE s1(a); INSERT INTO s1 VALUES (1)")).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"COMMIT", "BEGIN", "BEGIN IMMEDIATE", "END TRANSACTION", "ROLLBACK",
        "SAVEPOINT sp", "RELEASE sp", "/* hidden; */ ROLLBACK", "-- line\n  commit"})
    void transactionControlInsideAScriptIsRefusedBeforeAnythingRuns(String control) {
        long committedBefore = db.diagnostics().writer().counters().committed();

        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.executeScript("INSERT INTO t(v) VALUES ('before');\n"
                        + "CREATE TABLE made(a);\n" + control + ";\n"
                        + "INSERT INTO t(v) VALUES ('after');"));

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("statement 2 of the script");
        assertThat(scalar(db, "SELECT count(*) FROM t")).isZero();
        assertThat(db.query("SELECT name FROM sqlite_master WHERE name = 'made'")).isEmpty();
        assertThat(db.diagnostics().writer().counters().committed()).isEqualTo(committedBefore);
    }

    @Test
    void wordsThatOnlyLookLikeTransactionControlAreNotRefused() {
        int n = db.executeScript("""
                CREATE TABLE "commit"(begin TEXT, "rollback" TEXT);
                INSERT INTO "commit" VALUES ('COMMIT', 'ROLLBACK; END;');
                -- BEGIN;
                """);

        assertThat(n).isEqualTo(2);
        assertThat(db.query("SELECT begin, \"rollback\" AS r FROM \"commit\"").get(0)
                .getString("r")).isEqualTo("ROLLBACK; END;");
    }

    @Test
    void aScriptOfOnlyCommentsRunsNothing() {
        assertThat(db.executeScript("-- nothing here;\n/* nor; here */ ;  ;\n")).isZero();
        assertThat(db.executeScript("")).isZero();
        assertThat(scalar(db, "SELECT count(*) FROM t")).isZero();
    }
}

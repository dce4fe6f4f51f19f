package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.TestLanes.Blocker;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The lane owns the transaction: a body or a statement cannot commit, roll back or nest one. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionControlGuardTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    /** Transaction-control SQL, as people really write it. */
    static final List<String> CONTROL_SQL = List.of(
            "COMMIT",
            "commit",
            "/* x */ -- y\n  commit",
            "  SAVEPOINT a",
            "END",
            "END TRANSACTION",
            "RELEASE a",
            "RELEASE SAVEPOINT a",
            "ROLLBACK",
            "rollback to a",
            "BEGIN",
            "BEGIN IMMEDIATE",
            "\n\t-- leading comment\nBEGIN EXCLUSIVE",
            "INSERT INTO t(v) VALUES ('smuggled'); COMMIT",
            ";COMMIT");

    /** A connection operation that is transaction control. */
    interface ConnectionOp {
        void apply(Connection c) throws Exception;
    }

    static Stream<Arguments> controlMethods() {
        return Stream.of(
                Arguments.of(Named.of("commit()", (ConnectionOp) Connection::commit)),
                Arguments.of(Named.of("rollback()", (ConnectionOp) Connection::rollback)),
                Arguments.of(Named.of("setAutoCommit(true)", (ConnectionOp) c -> c.setAutoCommit(true))),
                Arguments.of(Named.of("setAutoCommit(false)", (ConnectionOp) c -> c.setAutoCommit(false))),
                Arguments.of(Named.of("close()", (ConnectionOp) Connection::close)),
                Arguments.of(Named.of("setSavepoint()", (ConnectionOp) Connection::setSavepoint)),
                Arguments.of(Named.of("setSavepoint(name)", (ConnectionOp) c -> c.setSavepoint("a"))));
    }

    static Stream<Arguments> controlSql() {
        return CONTROL_SQL.stream().flatMap(sql -> Stream.of(
                Arguments.of(Named.of("execute " + sql.replace("\n", "\\n"),
                        (ConnectionOp) c -> c.createStatement().execute(sql))),
                Arguments.of(Named.of("executeUpdate " + sql.replace("\n", "\\n"),
                        (ConnectionOp) c -> c.createStatement().executeUpdate(sql))),
                Arguments.of(Named.of("addBatch " + sql.replace("\n", "\\n"),
                        (ConnectionOp) c -> c.createStatement().addBatch(sql))),
                Arguments.of(Named.of("prepareStatement " + sql.replace("\n", "\\n"),
                        (ConnectionOp) c -> c.prepareStatement(sql)))));
    }

    /** Every control method, and each control SQL text through Statement.execute. */
    static Stream<Arguments> swallowedRefusals() {
        return Stream.concat(controlMethods(), CONTROL_SQL.stream().map(sql -> Arguments.of(
                Named.of("execute " + sql.replace("\n", "\\n"),
                        (ConnectionOp) c -> c.createStatement().execute(sql)))));
    }

    @BeforeEach
    void start() {
        db = runtime.openWithTable("guard.db");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"controlMethods", "controlSql"})
    void transactionControlInsideABodyFailsTheWriteAndNothingOfItPersists(ConnectionOp op) {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.write(c -> {
                    insert("before-control").apply(c);
                    op.apply(c);
                    insert("after-control").apply(c);
                    return "returned";
                }));

        assertThat(e).as("the write must fail").isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "before-control")).isZero();
        assertThat(countOf(db, "after-control")).isZero();
        assertThat(countOf(db, "smuggled")).isZero();
        assertThat(db.write(insert("next"))).as("the lane goes on").isEqualTo("next");
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("swallowedRefusals")
    void aBodyThatSwallowsTheRefusalStillFailsInAGroupAndItsNeighboursCommit(ConnectionOp op) {
        AtomicReference<Throwable> swallowed = new AtomicReference<>();
        CompletableFuture<String> before;
        CompletableFuture<String> sneaky;
        CompletableFuture<String> after;
        try (Blocker blocker = block(db)) {
            before = db.writeAsync(insert("n1"));
            sneaky = db.writeAsync(c -> {
                insert("sneaky").apply(c);
                try {
                    op.apply(c);
                } catch (Exception refused) {
                    swallowed.set(refused);
                }
                return "pretends all is well";
            });
            after = db.writeAsync(insert("n2"));
            blocker.release();
        }
        LanesException e = failureOf(sneaky);
        assertThat(e).isInstanceOf(InvalidRequestException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(swallowed.get()).isInstanceOf(InvalidRequestException.class);
        assertThat(countOf(db, "sneaky")).isZero();
        assertThat(join(before)).isEqualTo("n1");
        assertThat(join(after)).isEqualTo("n2");
        assertThat(countOf(db, "n1")).isEqualTo(1);
        assertThat(countOf(db, "n2")).isEqualTo(1);
    }

    @Test
    void transactionControlThroughDbExecuteIsRefusedBeforeItRuns() {
        for (String sql : CONTROL_SQL) {
            InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                    () -> db.execute(sql));
            assertThat(e).as("db.execute(%s)", sql).isNotNull();
            assertThat(e.outcome()).as(sql).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
        }
        assertThat(countOf(db, "smuggled")).as("nothing before the COMMIT ran").isZero();
        DatabaseDiagnostics d = db.diagnostics();
        assertThat(d.writer().counters().failed()).as("refused before reaching the lane").isZero();
        assertThat(d.writer().poisoned()).isFalse();
    }

    @Test
    void sqlThatOnlyMentionsTransactionWordsIsNotRefused() {
        db.write(c -> {
            c.createStatement().execute("INSERT INTO t(v) VALUES ('commit; rollback; begin')");
            c.createStatement().execute("CREATE TABLE \"commit\"(\"begin\" TEXT, [end] TEXT)");
            try (var s = c.prepareStatement("INSERT INTO \"commit\" VALUES ('savepoint', ?)")) {
                s.setString(1, "release");
                s.executeUpdate();
            }
            c.createStatement().execute("CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
                    + "INSERT INTO \"commit\" VALUES ('from trigger; commit', 'x'); END");
            c.createStatement().execute("-- comment: COMMIT\nINSERT INTO t(v) VALUES ('fired')");
            return null;
        });
        assertThat(countOf(db, "commit; rollback; begin")).isEqualTo(1);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM \"commit\"")).isEqualTo(2);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM \"commit\" WHERE \"begin\" = ?",
                "from trigger; commit")).isEqualTo(1);
    }

    @Test
    void aTriggerWhoseBodyEndsACaseExpressionCanBeCreated() {
        db.execute("CREATE TABLE log(id INTEGER, size TEXT)");
        // The END of the CASE directly before ';' is not the trigger's END (sqlite3_complete()
        // ends a trigger only at an END that follows a ';').
        db.write(c -> c.createStatement().execute("CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
                + "INSERT INTO log VALUES (new.id, 'x'); "
                + "UPDATE log SET size = CASE WHEN new.id > 1 THEN 'big' ELSE 'small' END; END"));
        db.write(insert("x"));
        assertThat(db.query("SELECT size FROM log").get(0).getString("size")).isEqualTo("small");
    }

    static Stream<Arguments> objectsReachableFromTheConnection() {
        return Stream.of(
                Arguments.of(Named.of("getMetaData().getConnection().commit()",
                        (ConnectionOp) c -> c.getMetaData().getConnection().commit())),
                Arguments.of(Named.of("getMetaData().getConnection().createStatement() COMMIT",
                        (ConnectionOp) c -> c.getMetaData().getConnection().createStatement()
                                .execute("COMMIT"))),
                Arguments.of(Named.of("executeQuery(..).getStatement() COMMIT",
                        (ConnectionOp) c -> c.createStatement().executeQuery("SELECT 1")
                                .getStatement().execute("COMMIT"))),
                Arguments.of(Named.of("prepared executeQuery().getStatement().getConnection()",
                        (ConnectionOp) c -> c.prepareStatement("SELECT 1").executeQuery()
                                .getStatement().getConnection().commit())),
                Arguments.of(Named.of("getResultSet().getStatement().getConnection().commit()",
                        (ConnectionOp) c -> {
                            var s = c.createStatement();
                            s.execute("SELECT 1");
                            s.getResultSet().getStatement().getConnection().commit();
                        })));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("objectsReachableFromTheConnection")
    void transactionControlThroughObjectsReachedFromTheGuardedConnectionIsRefusedToo(
            ConnectionOp op) {
        LanesException e = catchThrowableOfType(LanesException.class, () -> db.write(c -> {
            insert("reached").apply(c);
            op.apply(c);
            return null;
        }));
        assertThat(e).as("the write must fail").isNotNull();
        assertThat(e).isInstanceOf(InvalidRequestException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "reached")).as("nothing of the body persisted").isZero();
    }

    @Test
    void aBodysConnectionCannotBeUsedAfterTheBodyReturned() throws Exception {
        AtomicReference<Connection> leaked = new AtomicReference<>();
        db.write(c -> {
            leaked.set(c);
            return null;
        });
        assertThatThrownBy(() -> leaked.get().createStatement())
                .isInstanceOf(InvalidRequestException.class);
        assertThat(leaked.get().isClosed()).isTrue();
    }
}

package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Level;
import dev.lanes.ConstraintViolationException.Kind;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failures of the native API say what happened: a broken constraint is a typed {@link
 * ConstraintViolationException} with its kind; arguments that do not fit the statement (too
 * many, too few, a type Lanes cannot store, text that is not UTF-16) are refused before SQLite
 * runs, naming what is wrong; a synchronous call's failure shows the caller's frames; a failed
 * open is thrown to its caller and not also logged.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FailureReportTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    private Database db;

    @BeforeEach
    void schema() {
        db = runtime.open("failures.db", DatabaseOptions.builder().pragma("foreign_keys", true)
                .build());
        db.execute("CREATE TABLE parent(id INTEGER PRIMARY KEY)");
        db.execute("CREATE TABLE account(id INTEGER PRIMARY KEY, email TEXT UNIQUE, "
                + "n INTEGER NOT NULL CHECK (n >= 0), parent INTEGER REFERENCES parent(id))");
        db.execute("INSERT INTO parent(id) VALUES (1)");
        db.execute("INSERT INTO account(id, email, n) VALUES (1, 'ada@example.com', 0)");
    }

    @Test
    void eachBrokenConstraintIsATypedRolledBackFailureNamingItsKind() {
        String insert = "INSERT INTO account(id, email, n, parent) VALUES (?, ?, ?, ?)";
        assertConstraint(() -> db.execute(insert, 2, "ada@example.com", 0, null), Kind.UNIQUE,
                "UNIQUE constraint failed: account.email");
        assertConstraint(() -> db.execute(insert, 1, "bob@example.com", 0, null),
                Kind.PRIMARY_KEY, "UNIQUE constraint failed: account.id");
        assertConstraint(() -> db.execute(insert, 2, "bob@example.com", 0, 99), Kind.FOREIGN_KEY,
                "FOREIGN KEY constraint failed");
        assertConstraint(() -> db.execute(insert, 2, "bob@example.com", -1, null), Kind.CHECK,
                "CHECK constraint failed");
        assertConstraint(() -> db.execute(insert, 2, "bob@example.com", null, null),
                Kind.NOT_NULL, "NOT NULL constraint failed: account.n");

        ConstraintViolationException dup = assertConstraint(
                () -> db.execute("INSERT INTO account(email, n) VALUES (?, 0)", "ada@example.com"),
                Kind.UNIQUE, "UNIQUE constraint failed: account.email");
        assertThat(dup.getMessage()).isEqualTo("failures.db: 'INSERT INTO account(email, n) "
                + "VALUES (?, 0)' failed and was rolled back: UNIQUE constraint failed: "
                + "account.email");
        assertThat(dup).isInstanceOf(WriteFailedException.class);
        assertThat(dup.kind().duplicateKey()).isTrue();
        assertThat(dup.retryable()).isFalse();
        assertThat(count("SELECT count(*) FROM account")).as("nothing was written").isEqualTo(1);
    }

    @Test
    void aConstraintBrokenInABodyOrATransactionIsTypedToo() {
        assertConstraint(() -> db.write(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO account(id, email, n) VALUES (5, 'e', 0)")) {
                s.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO account(id, email, n) VALUES (6, 'ada@example.com', 0)")) {
                return s.executeUpdate();
            }
        }), Kind.UNIQUE, "account.email");
        assertThat(count("SELECT count(*) FROM account WHERE id = 5")).as("the body rolled back")
                .isZero();

        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO account(id, email, n) VALUES (7, 'g', 0)");
            assertConstraint(() -> tx.execute("INSERT INTO account(id, email, n) VALUES (7, 'h', 0)"),
                    Kind.PRIMARY_KEY, "account.id");
            tx.commit(); // the failed statement was undone alone; the transaction went on
        }
        assertThat(count("SELECT count(*) FROM account WHERE id = 7")).isEqualTo(1);
    }

    @Test
    void aBatchThatBreaksAConstraintStaysABatchFailureWithSqlitesErrorBeneath() {
        BatchFailedException e = catchThrowableOfType(BatchFailedException.class,
                () -> db.executeBatch(List.of(
                        Statement.of("INSERT INTO account(id, email, n) VALUES (8, 'i', 0)"),
                        Statement.of("INSERT INTO account(id, email, n) VALUES (9, 'i', 0)"))));
        assertThat(e.failedIndex()).isEqualTo(1);
        assertThat(e.getMessage()).contains("UNIQUE constraint failed: account.email");
        assertThat(count("SELECT count(*) FROM account")).isEqualTo(1);
    }

    @Test
    void tooManyOrTooFewArgumentsAreRefusedBeforeSqliteRunsNamingBothCounts() {
        String two = "INSERT INTO account(id, email, n) VALUES (?, ?, 0)";
        InvalidRequestException tooFew = refused(() -> db.execute(two, 10));
        assertThat(tooFew.getMessage()).isEqualTo("the statement has 2 parameters but 1 argument "
                + "was given; pass one argument per parameter (null for NULL)");
        InvalidRequestException tooMany = refused(() -> db.execute(two, 10, "x", "extra"));
        assertThat(tooMany.getMessage()).isEqualTo("the statement has 2 parameters but 3 "
                + "arguments were given; pass one argument per parameter (null for NULL)");
        assertThat(refused(() -> db.execute("DELETE FROM account", 1)).getMessage())
                .startsWith("the statement has 0 parameters but 1 argument was given");

        assertThat(refused(() -> db.query("SELECT ? AS a, ? AS b", 1)).getMessage())
                .contains("2 parameters but 1 argument");
        assertThat(refused(() -> db.query("SELECT ? AS a", 1, 2)).getMessage())
                .contains("1 parameter but 2 arguments");
        try (Transaction tx = db.begin()) {
            assertThat(refused(() -> tx.execute(two, 11)).getMessage())
                    .contains("2 parameters but 1 argument");
            assertThat(refused(() -> tx.query("SELECT ?", 1, 2)).getMessage())
                    .contains("1 parameter but 2 arguments");
            tx.execute(two, 11, "k"); // the transaction goes on
            tx.commit();
        }
        BatchFailedException batch = catchThrowableOfType(BatchFailedException.class,
                () -> db.executeBatch(List.of(Statement.of(two, 12, "l"), Statement.of(two, 13))));
        assertThat(batch.failedIndex()).isEqualTo(1);
        assertThat(batch.getCause()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("2 parameters but 1 argument");

        assertThat(count("SELECT count(*) FROM account")).as("only the transaction's row")
                .isEqualTo(2);
        assertThat(count("SELECT count(*) FROM account WHERE email IS NULL")).isZero();
    }

    @Test
    void aValueOfATypeLanesCannotStoreIsRefusedNamingItAndTheSupportedTypes() {
        InvalidRequestException e = refused(() -> db.execute(
                "INSERT INTO account(id, email, n) VALUES (?, ?, 0)", 20, List.of("a")));
        assertThat(e.getMessage()).startsWith("parameter 2 is a java.util.ImmutableCollections$")
                .contains("which Lanes cannot store; the supported types are String, Long")
                .contains("UUID, an enum, Instant");
        assertThat(refused(() -> db.query("SELECT ?", new Object())).getMessage())
                .startsWith("parameter 1 is a java.lang.Object, which Lanes cannot store");
        assertThat(count("SELECT count(*) FROM account")).isEqualTo(1);

        // Text of any CharSequence is its characters, as a String's.
        db.execute("INSERT INTO account(id, email, n) VALUES (?, ?, 0)", 21,
                new StringBuilder("sb@example.com"));
        assertThat(db.queryOne("SELECT email FROM account WHERE id = 21").orElseThrow()
                .getString("email")).isEqualTo("sb@example.com");
    }

    @Test
    void textThatIsNotValidUtf16IsRefusedNamingTheParameterNotStoredAsAQuestionMark() {
        String lone = "ab\uD800c";
        InvalidRequestException e = refused(() -> db.execute(
                "INSERT INTO account(id, email, n) VALUES (?, ?, 0)", 30, lone));
        assertThat(e.getMessage()).isEqualTo("parameter 2 is a String that is not valid UTF-16: "
                + "a lone surrogate (\\uD800) at index 2 of 4 characters, which SQLite would "
                + "store as '?'; was it cut inside a surrogate pair? Pass whole characters");
        assertThat(refused(() -> db.query("SELECT ?", "\uDC00")).getMessage())
                .contains("parameter 1").contains("\\uDC00");
        assertThat(count("SELECT count(*) FROM account")).isEqualTo(1);

        String pair = "emoji \uD83D\uDE00"; // a whole surrogate pair is fine
        db.execute("INSERT INTO account(id, email, n) VALUES (?, ?, 0)", 31, pair);
        assertThat(db.queryOne("SELECT email FROM account WHERE id = 31").orElseThrow()
                .getString("email")).isEqualTo(pair);
    }

    @Test
    void aSynchronousCallsFailureBuiltOnAPoolThreadShowsTheCallersFrames() throws Exception {
        // On a virtual thread the write and the read run on pool threads, never the caller's.
        VirtualThreads.assumeAvailable();
        LanesException write = onVirtualThread(this::insertDuplicateFromHere);
        LanesException read = onVirtualThread(this::queryMissingTableFromHere);

        assertThat(frames(write)).as("the caller's frame").contains("insertDuplicateFromHere");
        assertThat(frames(read)).as("the caller's frame").contains("queryMissingTableFromHere");
        for (LanesException e : List.of(write, read)) {
            assertThat(e.getSuppressed()).as("the failure as the pool thread made it").hasSize(1);
            Throwable pool = e.getSuppressed()[0];
            assertThat(pool).isInstanceOf(e.getClass()).hasMessage(e.getMessage());
            assertThat(frames(pool)).as("made where the caller's frames are not")
                    .doesNotContain("insertDuplicateFromHere", "queryMissingTableFromHere");
            assertThat(e.getCause()).as("the cause stays SQLite's error")
                    .isSameAs(pool.getCause()).isInstanceOf(java.sql.SQLException.class);
        }
        assertThat(write).isInstanceOf(ConstraintViolationException.class);
        assertThat(((ConstraintViolationException) write).kind()).isEqualTo(Kind.UNIQUE);
        assertThat(write.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(read).isInstanceOf(ReadFailedException.class);
    }

    @Test
    void aFailedMigrationIsThrownToTheCallerOfOpenAndNotAlsoLoggedAsAnError() {
        try (LogCapture log = LogCapture.everything().quiet()) {
            DatabaseDeadException e = catchThrowableOfType(DatabaseDeadException.class,
                    () -> runtime.open("migrating.db", DatabaseOptions.builder().initializer(
                            Migrations.of(List.of("CREATE TABLE a(x)",
                                    "INSERT INTO no_such_table VALUES (1)"))).build()));
            assertThat(e).isNotNull();
            assertThat(e.getCause()).hasMessageContaining("no_such_table");
            String here = "aFailedMigrationIsThrownToTheCallerOfOpenAndNotAlsoLoggedAsAnError";
            assertThat(frames(e)).as("thrown to the caller of open, with its frames")
                    .contains(here);
            assertThat(e.getSuppressed()).hasSize(1);
            assertThat(frames(e.getSuppressed()[0])).as("made on the writer's pool thread")
                    .doesNotContain(here);
            assertThat(log.messages(Level.ERROR)).as("reported once: thrown, not logged")
                    .isEmpty();
        }
    }

    // ------------------------------------------------------------------ helpers

    private void insertDuplicateFromHere() {
        db.execute("INSERT INTO account(id, email, n) VALUES (40, 'ada@example.com', 0)");
    }

    private void queryMissingTableFromHere() {
        db.query("SELECT * FROM no_such_table");
    }

    private static LanesException onVirtualThread(Runnable call) throws Exception {
        CompletableFuture<LanesException> thrown = new CompletableFuture<>();
        Thread t = VirtualThreads.start(() -> {
            try {
                call.run();
                thrown.complete(null);
            } catch (LanesException e) {
                thrown.complete(e);
            }
        });
        try {
            LanesException e = thrown.get(30, TimeUnit.SECONDS);
            assertThat(e).as("the call failed").isNotNull();
            return e;
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        } finally {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private static List<String> frames(Throwable t) {
        return Arrays.stream(t.getStackTrace()).map(StackTraceElement::getMethodName).toList();
    }

    private ConstraintViolationException assertConstraint(ThrowingCallable call, Kind kind,
            String sqliteMessage) {
        ConstraintViolationException e = catchThrowableOfType(ConstraintViolationException.class,
                call);
        assertThat(e).as("a constraint failure of kind " + kind).isNotNull();
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.code()).isEqualTo(ErrorCode.CONSTRAINT_VIOLATION);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getMessage()).contains(sqliteMessage);
        assertThat(e.getCause()).isInstanceOf(java.sql.SQLException.class);
        return e;
    }

    private static InvalidRequestException refused(Runnable call) {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                call::run);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(e.outcome()).as("nothing ran").isEqualTo(WriteOutcome.NOT_STARTED);
        return e;
    }

    private long count(String sql) {
        return TestLanes.scalar(db, sql);
    }
}

package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteConfig;

/**
 * Failures inside an interactive transaction: a failed statement or body undoes only itself and
 * the transaction goes on; a statement that ends the whole transaction ends the handle with
 * {@code ROLLED_BACK}; transaction control is refused before it runs; {@code BEGIN} refused busy
 * fails {@link BusyException}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransactionFailureTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("failure.db");
        db.execute("CREATE TABLE u(k TEXT UNIQUE)");
        db.execute("CREATE TABLE r(k TEXT UNIQUE ON CONFLICT ROLLBACK)");
    }

    @Test
    void aFailedStatementRollsBackAloneAndTheTransactionCommitsTheRest() {
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO u(k) VALUES ('a')");
            // 'c' is inserted, then 'a' violates UNIQUE: the whole statement is undone, 'c' too.
            WriteFailedException e = catchThrowableOfType(WriteFailedException.class,
                    () -> tx.execute("INSERT INTO u(k) VALUES ('c'), ('a')"));
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(tx.isOpen()).as("a failed statement leaves the transaction open").isTrue();
            tx.execute("INSERT INTO u(k) VALUES ('b')");
            tx.commit();
        }
        assertThat(keys()).containsExactly("a", "b");
    }

    @Test
    void aFailedBodyRollsBackOnlyWhatItDidAndTheTransactionGoesOn() {
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO u(k) VALUES ('before')");
            IllegalStateException cause = new IllegalStateException("body gave up");
            WriteFailedException e = catchThrowableOfType(WriteFailedException.class,
                    () -> tx.run(c -> {
                        try (Statement s = c.createStatement()) {
                            s.executeUpdate("INSERT INTO u(k) VALUES ('body-1')");
                            s.executeUpdate("INSERT INTO u(k) VALUES ('body-2')");
                        }
                        throw cause;
                    }));
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(e).hasRootCause(cause);
            assertThat(tx.isOpen()).isTrue();
            assertThat(tx.query("SELECT count(*) AS n FROM u WHERE k LIKE 'body-%'")
                    .get(0).getLong("n")).as("inside the transaction, the body is undone").isZero();
            tx.run(c -> {
                try (Statement s = c.createStatement()) {
                    return s.executeUpdate("INSERT INTO u(k) VALUES ('after')");
                }
            });
            tx.commit();
        }
        assertThat(keys()).containsExactly("after", "before");
    }

    @Test
    void aStatementThatEndsTheTransactionEndsTheHandleRolledBack() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO u(k) VALUES ('earlier')");
        tx.execute("INSERT INTO r(k) VALUES ('dup')");

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class,
                () -> tx.execute("INSERT INTO r(k) VALUES ('dup')"));

        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(tx.isOpen()).isFalse();
        WriteFailedException later = catchThrowableOfType(WriteFailedException.class,
                () -> tx.execute("INSERT INTO u(k) VALUES ('later')"));
        assertThat(later.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        WriteFailedException commit = catchThrowableOfType(WriteFailedException.class, tx::commit);
        assertThat(commit.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        tx.close();

        assertThat(keys()).as("nothing of the ended transaction persisted").isEmpty();
        assertThat(db.query("SELECT k FROM r")).isEmpty();
        // The lane was released: writes and new transactions run.
        assertThat(db.write(insert("afterwards"))).isEqualTo("afterwards");
        try (Transaction next = db.begin()) {
            next.execute("INSERT INTO r(k) VALUES ('dup')");
            next.commit();
        }
        assertThat(db.query("SELECT k FROM r")).hasSize(1);
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void transactionControlInsideTheTransactionIsRefusedBeforeItRuns() throws Exception {
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO u(k) VALUES ('uncommitted')");
            for (String control : new String[] {"COMMIT", "rollback", "END", "BEGIN",
                    "SAVEPOINT x", "RELEASE x"}) {
                InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                        () -> tx.execute(control));
                assertThat(e).as(control).isNotNull();
                assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            }
            InvalidRequestException query = catchThrowableOfType(InvalidRequestException.class,
                    () -> tx.query("COMMIT"));
            assertThat(query).isNotNull();
            InvalidRequestException body = catchThrowableOfType(InvalidRequestException.class,
                    () -> tx.run(c -> {
                        c.commit();
                        return null;
                    }));
            assertThat(body).as("a body's Connection.commit()").isNotNull();

            assertThat(tx.isOpen()).isTrue();
            assertThat(rawCount(db.path(), "SELECT count(*) FROM u"))
                    .as("no COMMIT ran: the row is still uncommitted").isZero();
            tx.rollback();
        }
        assertThat(keys()).isEmpty();
    }

    @Test
    void closingWithoutCommitRollsBackAndReleasesTheLane() {
        Transaction leaked;
        try (Transaction tx = db.begin()) {
            leaked = tx;
            tx.execute("INSERT INTO u(k) VALUES ('not-committed')");
        }
        assertThat(leaked.isOpen()).isFalse();
        WriteFailedException e = catchThrowableOfType(WriteFailedException.class,
                () -> leaked.execute("INSERT INTO u(k) VALUES ('late')"));
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        leaked.close(); // idempotent
        assertThat(keys()).isEmpty();
        assertThat(db.write(insert("next"))).isEqualTo("next");
    }

    @Test
    void explicitRollbackUndoesEverythingAndCommitAfterItIsRefused() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO u(k) VALUES ('x')");
        tx.rollback();
        assertThat(tx.isOpen()).isFalse();
        WriteFailedException commit = catchThrowableOfType(WriteFailedException.class, tx::commit);
        assertThat(commit.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        tx.rollback(); // no-op
        assertThat(keys()).isEmpty();
    }

    @Test
    void commitTwiceIsRefusedAsAlreadyCommittedAndTheDataStays() {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO u(k) VALUES ('once')");
        tx.commit();
        InvalidRequestException again = catchThrowableOfType(InvalidRequestException.class,
                tx::commit);
        assertThat(again.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        tx.close(); // does not roll back a committed transaction
        assertThat(keys()).containsExactly("once");
    }

    @Test
    void beginFailsBusyWhileAnotherConnectionHoldsTheWriteLock() throws Exception {
        Database busy = runtime.openWithTable("busy.db",
                DatabaseOptions.builder().busyTimeout(Duration.ofMillis(200)).build());
        try (Connection external = DriverManager.getConnection("jdbc:sqlite:" + busy.path());
                Statement s = external.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            s.execute("INSERT INTO t(v) VALUES ('external')");

            BusyException e = catchThrowableOfType(BusyException.class, busy::begin);

            assertThat(e).isNotNull();
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.retryable()).isTrue();
            s.execute("ROLLBACK");
        }
        AtomicBoolean ran = new AtomicBoolean();
        try (Transaction tx = busy.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('after')");
            ran.set(true);
            tx.commit();
        }
        assertThat(ran).isTrue();
        assertThat(countOf(busy, "after")).isEqualTo(1);
        assertThat(countOf(busy, "external")).isZero();
        assertThat(busy.diagnostics().writer().poisoned()).isFalse();
    }

    private java.util.List<String> keys() {
        return db.query("SELECT k FROM u ORDER BY k").stream().map(r -> r.getString("k")).toList();
    }

    private static long rawCount(Path file, String sql) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection raw = config.createConnection("jdbc:sqlite:" + file);
                PreparedStatement s = raw.prepareStatement(sql);
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

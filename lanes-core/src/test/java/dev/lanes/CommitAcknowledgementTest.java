package dev.lanes;

import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.spi.CommitFence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A commit fence's acknowledgement ({@link CommitFence#awaitAcknowledgement}): every entry point
 * that commits a write asks it once, on the caller's side, after the commit and before the
 * caller is answered; a read or a rollback does not. When it fails, the caller gets its failure
 * (UNKNOWN), and the write it reports on is committed, not undone.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CommitAcknowledgementTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    /** Counts acknowledgements; fails them with UNKNOWN when told to. */
    static final class AckFence implements CommitFence {
        final AtomicInteger acknowledged = new AtomicInteger();
        volatile boolean unconfirmed;

        @Override
        public void beforeCommit(Connection connection) {}

        @Override
        public boolean heldThroughCommit() {
            return true;
        }

        @Override
        public void awaitAcknowledgement() {
            acknowledged.incrementAndGet();
            if (unconfirmed) {
                throw new LanesException(ErrorCode.WRITE_FAILED, WriteOutcome.UNKNOWN,
                        "not confirmed", null) {};
            }
        }
    }

    final AckFence fence = new AckFence();
    Database db;

    @BeforeEach
    void open() {
        db = runtime.openWithTable("acknowledged.db",
                DatabaseOptions.builder().commitFence(fence).build());
        fence.acknowledged.set(0);
    }

    private long rows() {
        return scalar(db, "SELECT count(*) FROM t");
    }

    @Test
    void everyEntryPointThatCommitsIsAcknowledgedOnceAndReadsAreNot() throws Exception {
        db.execute("INSERT INTO t(v) VALUES ('execute')");
        db.write(c -> c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('write')"));
        db.writeAsync(c -> c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('a')"))
                .join();
        db.executeBatch(List.of(Statement.of("INSERT INTO t(v) VALUES (?)", "batch")));
        db.executeScript("INSERT INTO t(v) VALUES ('s1'); INSERT INTO t(v) VALUES ('s2')");
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('tx')");
            tx.commit();
        }
        DataSource ds = db.dataSource();
        try (Connection c = ds.getConnection()) {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                s.setString(1, "jdbc");
                s.executeUpdate();
            }
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                s.setString(1, "jdbc-tx");
                s.executeUpdate();
            }
            c.commit();
        }
        assertThat(fence.acknowledged).as("one per committing call").hasValue(8);

        db.query("SELECT * FROM t");
        db.read(c -> c.createStatement().executeQuery("SELECT 1").next());
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('rolled back')");
            tx.rollback();
        }
        assertThat(fence.acknowledged).as("reads and rollbacks are not acknowledged")
                .hasValue(8);
        assertThat(rows()).isEqualTo(9);
    }

    @Test
    void anUnconfirmedAcknowledgementReachesTheCallerAsUnknownAndTheWriteStaysCommitted() {
        fence.unconfirmed = true;
        LanesException execute = (LanesException) catchThrowable(
                () -> db.execute("INSERT INTO t(v) VALUES ('execute')"));
        assertThat(execute.outcome()).isEqualTo(WriteOutcome.UNKNOWN);

        Throwable async = catchThrowable(() -> db.writeAsync(
                c -> c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('a')")).join());
        assertThat(async).isInstanceOf(CompletionException.class);
        assertThat(((LanesException) async.getCause()).outcome()).isEqualTo(WriteOutcome.UNKNOWN);

        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('tx')");
        LanesException commit = (LanesException) catchThrowable(tx::commit);
        assertThat(commit.outcome()).isEqualTo(WriteOutcome.UNKNOWN);

        Throwable jdbc = catchThrowable(() -> {
            try (Connection c = db.dataSource().getConnection()) {
                c.createStatement().executeUpdate("INSERT INTO t(v) VALUES ('jdbc')");
            }
        });
        assertThat(jdbc).isInstanceOf(SQLException.class);
        assertThat(((SQLException) jdbc).getSQLState()).as("completion unknown")
                .isEqualTo("40003");

        fence.unconfirmed = false;
        assertThat(rows()).as("each write committed; only its acknowledgement failed")
                .isEqualTo(4);
    }
}

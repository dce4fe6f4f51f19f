package dev.lanes.internal.cluster;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bodies on a cluster database, with the contract of a local one: a write body gets a JDBC
 * connection inside the lane's group transaction on the leader session, in its own savepoint, so
 * that a failing body rolls back alone while its neighbours commit; transaction control is the
 * guard's refusal; a read body reads one snapshot on a read session. On an engine whose sessions
 * are local SQLite connections; the real cluster's tests are in lanes-dqlite.
 */
@Timeout(60)
class ClusterBodyTest {
    @TempDir
    Path dir;
    private Lanes lanes;
    private Database db;

    @BeforeEach
    void open() {
        lanes = Lanes.builder().name("cluster-body-test").maxThreads(4).build();
        db = lanes.openCluster(new SqliteClusterEngine(dir), "app",
                DatabaseOptions.builder().busyTimeout(Duration.ofSeconds(2)).build());
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
    }

    @AfterEach
    void close() {
        lanes.close();
    }

    private long groups() {
        return db.query("SELECT count(*) AS n FROM _lanes_groups").get(0).getLong("n");
    }

    private static long scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aWriteBodyRunsInsideTheGroupsTransactionSeesItsOwnWritesAndCommits() {
        long groupsBefore = groups();

        long seen = db.write(c -> {
            assertThat(c.getAutoCommit()).as("inside the lane's transaction").isFalse();
            insert("a").apply(c);
            insert("b").apply(c);
            return scalar(c, "SELECT count(*) FROM t");
        });

        assertThat(seen).isEqualTo(2);
        assertThat(countOf(db, "a")).isEqualTo(1);
        assertThat(countOf(db, "b")).isEqualTo(1);
        assertThat(groups() - groupsBefore).as("one transaction, its group id recorded")
                .isEqualTo(1);
    }

    @Test
    void aFailedStatementReachesTheBodyTypedAndTheBodyGoesOn() {
        db.execute("INSERT INTO t(v) VALUES ('taken')");

        String caught = db.write(c -> {
            insert("mine").apply(c);
            SQLException duplicate = catchThrowableOfType(() -> insert("taken").apply(c),
                    SQLException.class);
            insert("after").apply(c);
            return duplicate.getClass().getSimpleName();
        });

        assertThat(caught).isEqualTo(SQLIntegrityConstraintViolationException.class
                .getSimpleName());
        assertThat(countOf(db, "mine")).isEqualTo(1);
        assertThat(countOf(db, "after")).isEqualTo(1);
        assertThat(countOf(db, "taken")).isEqualTo(1);
    }

    @Test
    void aThrowingBodyRollsBackAloneWhileItsGroupNeighboursCommit() {
        IllegalStateException cause = new IllegalStateException("the body gave up");
        CompletableFuture<String> before;
        CompletableFuture<Object> culprit;
        CompletableFuture<String> after;
        long groupsBefore;
        try (Blocker blocker = block(db)) {
            before = db.writeAsync(insert("before"));
            culprit = db.writeAsync(c -> {
                insert("culprit").apply(c);
                throw cause;
            });
            after = db.writeAsync(insert("after"));
            groupsBefore = db.diagnostics().writer().counters().groupsCommitted();
            blocker.release();
        }

        assertThat(join(before)).isEqualTo("before");
        assertThat(join(after)).isEqualTo("after");
        LanesException failed = failureOf(culprit);
        assertThat(failed).isInstanceOf(WriteFailedException.class).hasRootCause(cause);
        assertThat(failed.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "culprit")).isZero();
        assertThat(countOf(db, "before")).isEqualTo(1);
        assertThat(countOf(db, "after")).isEqualTo(1);
        // the blocker's group, then one group holding the three queued bodies
        assertThat(db.diagnostics().writer().counters().groupsCommitted() - groupsBefore)
                .isEqualTo(2);
    }

    @Test
    void aBodysTransactionControlIsRefusedTypedAndNothingOfItPersists() {
        AtomicReference<Throwable> swallowed = new AtomicReference<>();
        InvalidRequestException refused = catchThrowableOfType(() -> db.write(c -> {
            insert("before-commit").apply(c);
            try {
                c.commit();
            } catch (Exception e) {
                swallowed.set(e);
            }
            return "pretends all is well";
        }), InvalidRequestException.class);

        assertThat(swallowed.get()).isInstanceOf(InvalidRequestException.class);
        assertThat(refused.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(countOf(db, "before-commit")).isZero();
        for (String control : new String[] {"COMMIT", "ROLLBACK", "SAVEPOINT s"}) {
            InvalidRequestException e = catchThrowableOfType(() -> db.write(c -> {
                insert("with " + control).apply(c);
                return c.createStatement().execute(control);
            }), InvalidRequestException.class);
            assertThat(e).as(control).isNotNull();
            assertThat(countOf(db, "with " + control)).as(control).isZero();
        }
        assertThat(db.write(insert("next"))).as("the lane goes on").isEqualTo("next");
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
    }

    @Test
    void unwrappingToTheDriversConnectionIsTheOneCallRefusedAndTheBodyGoesOn() {
        String value = db.write(c -> {
            SQLFeatureNotSupportedException e = catchThrowableOfType(
                    () -> c.unwrap(org.sqlite.SQLiteConnection.class),
                    SQLFeatureNotSupportedException.class);
            assertThat(e.getCause()).isInstanceOf(InvalidRequestException.class);
            assertThat(((InvalidRequestException) e.getCause()).outcome())
                    .isEqualTo(WriteOutcome.NOT_STARTED);
            return insert("unwrapped-not").apply(c);
        });

        assertThat(value).isEqualTo("unwrapped-not");
        assertThat(countOf(db, "unwrapped-not")).isEqualTo(1);
    }

    @Test
    void aWriteReturningRowsIsRefusedInABodyBeforeItIsSentAndTheBodyGoesOn() {
        String value = db.write(c -> {
            SQLFeatureNotSupportedException e = catchThrowableOfType(
                    () -> c.createStatement().executeQuery(
                            "INSERT INTO t(v) VALUES ('r') RETURNING id"),
                    SQLFeatureNotSupportedException.class);
            assertThat(e.getCause()).isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("RETURNING");
            return insert("instead").apply(c);
        });

        assertThat(value).isEqualTo("instead");
        assertThat(countOf(db, "r")).isZero();
        assertThat(countOf(db, "instead")).isEqualTo(1);
    }

    @Test
    void aBodysMetaDataSeesItsOwnUncommittedSchema() {
        boolean found = db.write(c -> {
            c.createStatement().executeUpdate("CREATE TABLE fresh(x INTEGER)");
            try (ResultSet rs = c.getMetaData().getTables(null, null, "fresh", null)) {
                return rs.next();
            }
        });

        assertThat(found).isTrue();
    }

    @Test
    void aBodyInAnInteractiveTransactionRollsBackOnlyWhatItDidAndTheTransactionGoesOn() {
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO t(v) VALUES ('tx-before')");
            IllegalStateException cause = new IllegalStateException("body gave up");
            WriteFailedException e = catchThrowableOfType(() -> tx.run(c -> {
                insert("body-1").apply(c);
                throw cause;
            }), WriteFailedException.class);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(e).hasRootCause(cause);
            assertThat(tx.isOpen()).isTrue();
            long own = tx.run(c -> scalar(c, "SELECT count(*) FROM t WHERE v = 'tx-before'"));
            assertThat(own).as("the body sees the transaction's own rows").isEqualTo(1);
            tx.run(insert("tx-after"));
            tx.commit();
        }

        assertThat(countOf(db, "tx-before")).isEqualTo(1);
        assertThat(countOf(db, "body-1")).isZero();
        assertThat(countOf(db, "tx-after")).isEqualTo(1);
    }

    @Test
    void aReadBodySeesCommittedRowsOnAReadOnlyConnection() {
        db.execute("INSERT INTO t(v) VALUES ('committed')");

        long n = db.read(c -> {
            assertThat(c.isReadOnly()).isTrue();
            return scalar(c, "SELECT count(*) FROM t");
        });
        ReadOnlyViolationException write = catchThrowableOfType(
                () -> db.read(c -> c.createStatement().executeUpdate(
                        "INSERT INTO t(v) VALUES ('sneaked')")),
                ReadOnlyViolationException.class);

        assertThat(n).isEqualTo(1);
        assertThat(write).isNotNull();
        assertThat(countOf(db, "sneaked")).isZero();
    }

    @Test
    void aReadBodyWhileCorkedSeesTheCorkedWrites() {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        long n = db.read(c -> scalar(c, "SELECT count(*) FROM t"));
        db.uncork();

        assertThat(n).isEqualTo(1);
        assertThat(countOf(db, "corked")).isEqualTo(1);
    }

    @Test
    void asyncBodiesCompleteTheirFutures() {
        CompletableFuture<String> written = db.writeAsync(insert("async"));
        assertThat(join(written)).isEqualTo("async");

        CompletableFuture<Long> read = db.readAsync(c -> scalar(c,
                "SELECT count(*) FROM t WHERE v = 'async'"));
        assertThat(join(read)).isEqualTo(1);

        CompletableFuture<Object> refused = db.readAsync(c -> c.createStatement().executeUpdate(
                "DELETE FROM t"));
        assertThat(failureOf(refused)).isInstanceOf(ReadOnlyViolationException.class);
        assertThat(countOf(db, "async")).isEqualTo(1);
    }

    @Test
    void aProfiledBodyIsProfiledAsOnALocalDatabase() {
        dev.lanes.Profiled<String> written = db.profiled().write(dev.lanes.WriteOptions.DEFAULTS,
                insert("profiled"));
        assertThat(written.value()).isEqualTo("profiled");
        assertThat(written.profile()).as("a profile, not none").isNotNull();
        assertThat(written.profile().binds()).as("the insert's one parameter").isEqualTo(1);

        dev.lanes.Profiled<Long> read = db.profiled().read(dev.lanes.ReadOptions.DEFAULTS,
                c -> scalar(c, "SELECT count(*) FROM t"));
        assertThat(read.value()).isEqualTo(1);
        assertThat(read.profile()).isNotNull();
        assertThat(read.profile().rows()).as("the count's one row").isEqualTo(1);
    }
}

package dev.lanes.internal.writer;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.failureOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.rawCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.LanesException;
import dev.lanes.TestLanes.Blocker;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.WriterPoisonedException;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The defect found under libfiu: a {@code COMMIT} whose frames reached the WAL but whose sync
 * failed was reported {@code ROLLED_BACK}, and crash recovery then replayed it. A commit that
 * failed after it may have written is {@code UNKNOWN} and poisons the writer, for a group, an
 * interactive transaction and an uncork alike; a commit SQLite refused before writing (a
 * deferred foreign key) is still {@code ROLLED_BACK}, verified, and poisons nothing.
 *
 * <p>Here the fault runs the real {@code COMMIT} and then fails as SQLite does when its sync
 * fails ({@code SQLITE_IOERR_FSYNC}), so the rows really are in the file while the lane is told
 * the commit failed. The same defect under a real failing {@code fsync} is covered by the libfiu
 * tests.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CommitSyncFailureTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    /** Whether the next COMMIT, once it ran, reports a failed sync. */
    final AtomicBoolean syncFails = new AtomicBoolean();

    @BeforeEach
    void start() {
        db = runtime.open("sync.db");
        ((DatabaseImpl) db).lane().faults(new FaultInjector() {
            @Override
            public void before(Point point) {}

            @Override
            public void after(Point point) throws SQLException {
                if (point == Point.COMMIT && syncFails.compareAndSet(true, false)) {
                    throw new SQLiteException("[SQLITE_IOERR_FSYNC] injected: fsync failed after "
                            + "the commit's frames were written", SQLiteErrorCode.SQLITE_IOERR_FSYNC);
                }
            }
        });
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    }

    @Test
    void aGroupWhoseCommitSyncFailsIsUnknownForEveryRequestAndPoisonsTheWriter() throws Exception {
        List<CompletableFuture<String>> group = new ArrayList<>();
        try (Blocker blocker = block(db)) {
            for (int i = 0; i < 4; i++) {
                String v = "g" + i;
                group.add(db.writeAsync(c -> {
                    syncFails.set(true); // armed inside the group, so this group's COMMIT fails
                    return insert(v).apply(c);
                }));
            }
            blocker.release();
            assertThat(join(blocker.future)).isEqualTo("blocker");
        }
        for (CompletableFuture<String> w : group) {
            LanesException e = failureOf(w);
            assertThat(e).isInstanceOf(WriteFailedException.class);
            assertThat(e.outcome()).as("a commit that may have persisted is never reported "
                    + "rolled back").isEqualTo(WriteOutcome.UNKNOWN);
            assertThat(e.getCause()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("SQLITE_IOERR_FSYNC");
        }
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
        assertThat(db.diagnostics().writer().poisonCause()).hasValueSatisfying(cause -> assertThat(cause).contains("I/O error"));
        WriterPoisonedException later = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('later')"));
        assertThat(later.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);

        // UNKNOWN was the truth: the rows are in the file, as crash recovery would find them.
        db.close();
        for (int i = 0; i < 4; i++) {
            assertThat(rawCount(db.path(), "g" + i)).as("g%d", i).isEqualTo(1);
        }
        assertThat(rawCount(db.path(), "later")).isZero();
    }

    @Test
    void anInteractiveTransactionWhoseCommitSyncFailsIsUnknownAndPoisonsTheWriter()
            throws Exception {
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        syncFails.set(true);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, tx::commit);

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(tx.isOpen()).isFalse();
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
        db.close();
        assertThat(rawCount(db.path(), "in-tx")).isEqualTo(1);
    }

    @Test
    void anUncorkWhoseCommitSyncFailsIsUnknownAndPoisonsTheWriter() throws Exception {
        db.cork();
        db.execute("INSERT INTO t(v) VALUES ('corked')");
        syncFails.set(true);

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, db::uncork);

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        assertThat(db.diagnostics().writer().poisoned()).isTrue();
        db.close();
        assertThat(rawCount(db.path(), "corked")).isEqualTo(1);
    }

    @Test
    void aCommitRefusedBeforeItWroteIsRolledBackVerifiedAndPoisonsNothing() throws Exception {
        // A deferred foreign key is checked at COMMIT, which SQLite then refuses and leaves the
        // transaction open: a real commit failure that certainly wrote nothing.
        db.execute("CREATE TABLE parent(id INTEGER PRIMARY KEY)");
        db.execute("CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES "
                + "parent(id) DEFERRABLE INITIALLY DEFERRED)");
        Transaction tx = db.begin();
        tx.execute("INSERT INTO t(v) VALUES ('in-tx')");
        tx.execute("INSERT INTO child(parent) VALUES (42)");

        WriteFailedException e = catchThrowableOfType(WriteFailedException.class, tx::commit);

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.getCause()).hasMessageContaining("FOREIGN KEY");
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.write(insert("next"))).isEqualTo("next");
        db.close();
        assertThat(rawCount(db.path(), "in-tx")).isZero();
        assertThat(rawCount(db.path(), "next")).isEqualTo(1);
    }
}

package dev.lanes;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import dev.lanes.internal.file.LeaseSlot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One owner per database file: an OS lock on the database's byte of a lock file its directory
 * shares, taken at open, refused to a second process and to a second runtime of the same JVM, and
 * released only once every connection really closed.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeaseTest {
    @TempDir Path dir;
    Lanes lanes;

    @BeforeEach
    void start() {
        lanes = TestLanes.runtime();
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @Test
    void aSecondProcessIsRefusedWhileTheFirstHoldsTheDatabaseAndSucceedsAfterItCloses()
            throws Exception {
        Database db = openWithTable(lanes, dir, "owned.db");
        db.execute("INSERT INTO t(v) VALUES ('from-parent')");
        LeaseSlot slot = LeaseSlot.of(dir.toRealPath().resolve("owned.db"));
        assertThat(slot.lockFile()).as("the lock file beside the database").exists();

        String refused = LeaseChild.runOn(db.path(), dir);
        assertThat(refused).startsWith("LOCKED ").contains(slot.toString());
        assertThat(countOf(db, "from-child")).as("the refused process wrote nothing").isZero();

        db.close();
        assertThat(LeaseChild.runOn(db.path(), dir)).isEqualTo("OPENED");

        Database reopened = lanes.open(db.path());
        assertThat(countOf(reopened, "from-child")).isEqualTo(1);
        assertThat(countOf(reopened, "from-parent")).isEqualTo(1);
    }

    @Test
    void aSecondRuntimeInTheSameJvmIsRefusedUntilTheFirstClosesTheDatabase() throws IOException {
        Database db = openWithTable(lanes, dir, "shared.db");
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            DatabaseLockedException e = catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(dir.resolve("shared.db")));
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.DATABASE_LOCKED);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains(LeaseSlot.of(dir.toRealPath()
                    .resolve("shared.db")).toString()).contains("'test'");
            assertThat(other.diagnostics().openDatabases()).as("nothing registered").isZero();

            // The refusal left the owner's lock alone: it still writes, and still refuses others.
            assertThat(db.write(insert("still-owned"))).isEqualTo("still-owned");
            assertThat(catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(dir.resolve("shared.db")))).isNotNull();

            db.close();
            Database moved = other.open(dir.resolve("shared.db"));
            assertThat(countOf(moved, "still-owned")).isEqualTo(1);
            DatabaseLockedException back = catchThrowableOfType(DatabaseLockedException.class,
                    () -> lanes.open(dir.resolve("shared.db")));
            assertThat(back).as("now the first runtime is the second owner").isNotNull();
        }
        assertThat(countOf(lanes.open(dir.resolve("shared.db")), "still-owned")).isEqualTo(1);
    }

    @Test
    void aCloseThatTimedOutKeepsTheLeaseUntilItReallyFinishes() {
        Database db = openWithTable(lanes, dir, "slow.db",
                DatabaseOptions.builder().closeTimeout(Duration.ofMillis(50)).build());
        CompletableFuture<String> accepted;
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            try (TestLanes.Blocker blocker = block(db)) {
                accepted = db.writeAsync(insert("accepted"));
                assertThat(catchThrowableOfType(CloseTimeoutException.class, db::close))
                        .isNotNull();
                assertThat(catchThrowableOfType(DatabaseLockedException.class,
                        () -> other.open(dir.resolve("slow.db"))))
                        .as("the close goes on in the background, and owns the file until done")
                        .isNotNull();
                blocker.release();
            }
            assertThat(join(accepted)).isEqualTo("accepted");
            join(db.whenTerminated());
            TestLanes.awaitTrue("the background close to finish",
                    () -> db.state() == DatabaseState.CLOSED);
            Database moved = other.open(dir.resolve("slow.db"));
            assertThat(countOf(moved, "accepted")).isEqualTo(1);
        }
    }

    @Test
    void theSameRuntimeReopensAPathRightAfterItsCloseReturned() {
        for (int i = 0; i < 20; i++) {
            Database db = openWithTable(lanes, dir, "again.db");
            db.execute("INSERT INTO t(v) VALUES ('round')");
            db.close();
        }
        assertThat(countOf(lanes.open(dir.resolve("again.db")), "round")).isEqualTo(20);
    }

    /**
     * The databases of a directory share lock files, and closing a descriptor drops every record
     * lock the process holds on that file: opening and closing neighbours in the same lock file,
     * through this runtime and another one, must leave the first database owned, while a second
     * process still opens a neighbour freely.
     */
    @Test
    void neighboursInTheSameLockFileComeAndGoWithoutDroppingTheLease() throws Exception {
        Database db = openWithTable(lanes, dir, "kept.db");
        Path real = dir.toRealPath();
        Path lockFile = LeaseSlot.of(real.resolve("kept.db")).lockFile();
        List<String> neighbours = new ArrayList<>();
        for (int i = 0; neighbours.size() < 3; i++) {
            if (LeaseSlot.of(real.resolve("n" + i + ".db")).lockFile().equals(lockFile)) {
                neighbours.add("n" + i + ".db");
            }
        }
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            for (String name : neighbours) {
                Lanes owner = name.equals(neighbours.get(1)) ? other : lanes;
                Database neighbour = openWithTable(owner, dir, name);
                neighbour.execute("INSERT INTO t(v) VALUES ('neighbour')");
                neighbour.close();
            }
            String child = LeaseChild.runOn(dir.resolve(neighbours.get(0)), dir);
            assertThat(child).as("a closed neighbour is free for another process")
                    .isEqualTo("OPENED");
        }
        assertThat(LeaseChild.runOn(db.path(), dir))
                .as("after its neighbours in %s came and went, the database is still owned",
                        lockFile)
                .startsWith("LOCKED ");
        assertThat(db.write(insert("still-mine"))).isEqualTo("still-mine");
        assertThat(countOf(db, "from-child")).isZero();
    }

    @Test
    void closingTheRuntimeReleasesEveryLease() {
        Database a = openWithTable(lanes, dir, "a.db");
        a.execute("INSERT INTO t(v) VALUES ('a')");
        lanes.close();
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            assertThat(countOf(other.open(dir.resolve("a.db")), "a")).isEqualTo(1);
        }
    }
}

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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One owner per database file: an OS lock on {@code <name>.lanes-lock} taken at open, refused to
 * a second process and to a second runtime of the same JVM, and released only once every
 * connection really closed.
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
        Path lockFile = dir.toRealPath().resolve("owned.db.lanes-lock");
        assertThat(lockFile).as("the lock file beside the database").exists();

        String refused = LeaseChild.runOn(db.path(), dir);
        assertThat(refused).startsWith("LOCKED ").contains(lockFile.toString());
        assertThat(countOf(db, "from-child")).as("the refused process wrote nothing").isZero();

        db.close();
        assertThat(LeaseChild.runOn(db.path(), dir)).isEqualTo("OPENED");

        Database reopened = lanes.open(db.path());
        assertThat(countOf(reopened, "from-child")).isEqualTo(1);
        assertThat(countOf(reopened, "from-parent")).isEqualTo(1);
    }

    @Test
    void aSecondRuntimeInTheSameJvmIsRefusedUntilTheFirstClosesTheDatabase() {
        Database db = openWithTable(lanes, dir, "shared.db");
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            DatabaseLockedException e = catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(dir.resolve("shared.db")));
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.DATABASE_LOCKED);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains("shared.db.lanes-lock").contains("'test'");
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

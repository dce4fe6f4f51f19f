package dev.lanes.internal.file;

import static dev.lanes.TestLanes.block;
import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanes.CloseTimeoutException;
import dev.lanes.Database;
import dev.lanes.DatabaseLockedException;
import dev.lanes.DatabaseOptions;
import dev.lanes.DatabaseState;
import dev.lanes.ErrorCode;
import dev.lanes.Lanes;
import dev.lanes.LeaseChild;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.file.LeaseSlot;
import dev.lanes.internal.sqlite.SqliteGuard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One owner per database file: an OS lock on the database's byte of a lock file its directory
 * shares, taken at open, refused to a second process and to a second runtime of the same JVM, and
 * released only once every connection really closed.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeaseTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Tag("slow") // process: a second JVM
    @Test
    void aSecondProcessIsRefusedWhileTheFirstHoldsTheDatabaseAndSucceedsAfterItCloses()
            throws Exception {
        Database db = runtime.openWithTable("owned.db");
        db.execute("INSERT INTO t(v) VALUES ('from-parent')");
        LeaseSlot slot = LeaseSlot.of(runtime.dir().toRealPath().resolve("owned.db"));
        assertThat(slot.lockFile()).as("the lock file beside the database").exists();

        String refused = LeaseChild.runOn(db.path(), runtime.dir());
        assertThat(refused).startsWith("LOCKED ").contains(slot.toString());
        assertThat(countOf(db, "from-child")).as("the refused process wrote nothing").isZero();

        db.close();
        assertThat(LeaseChild.runOn(db.path(), runtime.dir())).isEqualTo("OPENED");

        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "from-child")).isEqualTo(1);
        assertThat(countOf(reopened, "from-parent")).isEqualTo(1);
    }

    @Tag("slow") // process: a second JVM
    @Test
    void aSecondProcessOpeningAHardLinkInAnotherDirectoryIsRefusedUntilTheFirstCloses()
            throws Exception {
        assumeTrue(SqliteGuard.available(),
                "the file lock needs Lanes' native guard: " + SqliteGuard.unavailable());
        Database db = runtime.openWithTable("linked.db");
        db.execute("INSERT INTO t(v) VALUES ('from-parent')");
        Path elsewhere = Files.createDirectories(runtime.dir().resolve("elsewhere"));
        Path link = Files.createLink(elsewhere.resolve("alias.db"), db.path());

        String refused = LeaseChild.runOn(link, runtime.dir());
        assertThat(refused).startsWith("LOCKED ").contains("under another name");
        assertThat(countOf(db, "from-child")).as("the refused process wrote nothing").isZero();
        db.execute("INSERT INTO t(v) VALUES ('after')");

        db.close();
        assertThat(LeaseChild.runOn(link, runtime.dir())).isEqualTo("OPENED");
        Database reopened = runtime.lanes().open(db.path());
        assertThat(reopened.query("PRAGMA integrity_check").get(0).getString(0)).isEqualTo("ok");
        assertThat(countOf(reopened, "from-child")).isEqualTo(1);
        assertThat(countOf(reopened, "after")).isEqualTo(1);
    }

    @Test
    void aSecondRuntimeInTheSameJvmIsRefusedUntilTheFirstClosesTheDatabase() throws IOException {
        Database db = runtime.openWithTable("shared.db");
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            DatabaseLockedException e = catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(runtime.path("shared.db")));
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.DATABASE_LOCKED);
            assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
            assertThat(e.getMessage()).contains(LeaseSlot.of(runtime.dir().toRealPath()
                    .resolve("shared.db")).toString()).contains("'test'");
            assertThat(other.diagnostics().openDatabases()).as("nothing registered").isZero();

            // The refusal left the owner's lock alone: it still writes, and still refuses others.
            assertThat(db.write(insert("still-owned"))).isEqualTo("still-owned");
            assertThat(catchThrowableOfType(DatabaseLockedException.class,
                    () -> other.open(runtime.path("shared.db")))).isNotNull();

            db.close();
            Database moved = other.open(runtime.path("shared.db"));
            assertThat(countOf(moved, "still-owned")).isEqualTo(1);
            DatabaseLockedException back = catchThrowableOfType(DatabaseLockedException.class,
                    () -> runtime.open("shared.db"));
            assertThat(back).as("now the first runtime is the second owner").isNotNull();
        }
        assertThat(countOf(runtime.open("shared.db"), "still-owned")).isEqualTo(1);
    }

    @Test
    void aCloseThatTimedOutKeepsTheLeaseUntilItReallyFinishes() {
        Database db = runtime.openWithTable("slow.db",
                DatabaseOptions.builder().closeTimeout(Duration.ofMillis(50)).build());
        CompletableFuture<String> accepted;
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            try (TestLanes.Blocker blocker = block(db)) {
                accepted = db.writeAsync(insert("accepted"));
                assertThat(catchThrowableOfType(CloseTimeoutException.class, db::close))
                        .isNotNull();
                assertThat(catchThrowableOfType(DatabaseLockedException.class,
                        () -> other.open(runtime.path("slow.db"))))
                        .as("the close goes on in the background, and owns the file until done")
                        .isNotNull();
                blocker.release();
            }
            assertThat(join(accepted)).isEqualTo("accepted");
            join(db.whenTerminated());
            TestLanes.awaitTrue("the background close to finish",
                    () -> db.state() == DatabaseState.CLOSED);
            Database moved = other.open(runtime.path("slow.db"));
            assertThat(countOf(moved, "accepted")).isEqualTo(1);
        }
    }

    @Test
    void theSameRuntimeReopensAPathRightAfterItsCloseReturned() {
        for (int i = 0; i < 20; i++) {
            Database db = runtime.openWithTable("again.db");
            db.execute("INSERT INTO t(v) VALUES ('round')");
            db.close();
        }
        assertThat(countOf(runtime.open("again.db"), "round")).isEqualTo(20);
    }

    /**
     * The databases of a directory share lock files, and closing a descriptor drops every record
     * lock the process holds on that file: opening and closing neighbours in the same lock file,
     * through this runtime and another one, must leave the first database owned, while a second
     * process still opens a neighbour freely.
     */
    @Tag("slow") // process: second JVMs
    @Test
    void neighboursInTheSameLockFileComeAndGoWithoutDroppingTheLease() throws Exception {
        Database db = runtime.openWithTable("kept.db");
        Path real = runtime.dir().toRealPath();
        Path lockFile = LeaseSlot.of(real.resolve("kept.db")).lockFile();
        List<String> neighbours = new ArrayList<>();
        for (int i = 0; neighbours.size() < 3; i++) {
            if (LeaseSlot.of(real.resolve("n" + i + ".db")).lockFile().equals(lockFile)) {
                neighbours.add("n" + i + ".db");
            }
        }
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            for (String name : neighbours) {
                Lanes owner = name.equals(neighbours.get(1)) ? other : runtime.lanes();
                Database neighbour = openWithTable(owner, runtime.dir(), name,
                        DatabaseOptions.DEFAULTS);
                neighbour.execute("INSERT INTO t(v) VALUES ('neighbour')");
                neighbour.close();
            }
            String child = LeaseChild.runOn(runtime.path(neighbours.get(0)), runtime.dir());
            assertThat(child).as("a closed neighbour is free for another process")
                    .isEqualTo("OPENED");
        }
        assertThat(LeaseChild.runOn(db.path(), runtime.dir()))
                .as("after its neighbours in %s came and went, the database is still owned",
                        lockFile)
                .startsWith("LOCKED ");
        assertThat(db.write(insert("still-mine"))).isEqualTo("still-mine");
        assertThat(countOf(db, "from-child")).isZero();
    }

    @Test
    void closingTheRuntimeReleasesEveryLease() {
        Database a = runtime.openWithTable("a.db");
        a.execute("INSERT INTO t(v) VALUES ('a')");
        runtime.lanes().close();
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            assertThat(countOf(other.open(runtime.path("a.db")), "a")).isEqualTo(1);
        }
    }
}

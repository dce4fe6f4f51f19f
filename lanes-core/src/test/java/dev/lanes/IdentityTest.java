package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Physical identity: the first writable open installs {@code _lanes_identity}; every connection
 * opened later checks that UUID and the file's device and inode, so a file swapped underneath is
 * detected and the database goes dead instead of reading or writing the wrong file.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdentityTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void theFirstWritableOpenInstallsOneUuidThatLaterOpensKeep() {
        Database db = runtime.openWithTable("id.db");
        List<Row> rows = db.query("SELECT id, uuid FROM _lanes_identity");
        assertThat(rows).hasSize(1);
        String uuid = rows.get(0).getString("uuid");
        assertThat(UUID.fromString(uuid)).isNotNull();
        db.close();

        Database reopened = runtime.lanes().open(db.path());
        reopened.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(reopened.query("SELECT uuid FROM _lanes_identity"))
                .extracting(r -> r.getString("uuid")).containsExactly(uuid);
    }

    @Test
    void aFileSwappedUnderneathIsDetectedByTheNextConnectionAndTheDatabaseGoesDead()
            throws Exception {
        Database db = runtime.openWithTable("live.db");
        db.execute("INSERT INTO t(v) VALUES ('before')");
        // Swapped while the writer still holds the old file open (and would write to it). No
        // reader has opened yet: the next read opens the first reader connection.
        swapIn(db, impostor("impostor.db"));

        // The first read opens a reader connection: it finds another file at the path.
        IdentityMismatchException e = catchThrowableOfType(IdentityMismatchException.class,
                () -> db.query("SELECT count(*) FROM t"));
        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.IDENTITY_MISMATCH);
        assertThat(e.getMessage()).contains("live.db").contains("replaced");

        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
        DatabaseDeadException write = catchThrowableOfType(DatabaseDeadException.class,
                () -> db.write(insert("after")));
        assertThat(write).isNotNull();
        assertThat(write.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(write.getCause()).isInstanceOf(IdentityMismatchException.class);
        assertThat(db.diagnostics().deadCause()).isPresent();
        Termination end = join(db.whenTerminated());
        assertThat(end.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(end.cause()).containsInstanceOf(IdentityMismatchException.class);

        db.close();
        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        // Reopened, the runtime pins the file now at the path: the impostor, untouched.
        Database reopened = runtime.lanes().open(db.path());
        assertThat(countOf(reopened, "impostor")).isEqualTo(1);
        assertThat(countOf(reopened, "after")).isZero();
        assertThat(countOf(reopened, "before")).isZero();
    }

    @Test
    void anotherIdentityInTheSameFileIsDetected() throws Exception {
        Database db = runtime.openWithTable("same-inode.db");
        db.execute("INSERT INTO t(v) VALUES ('before')");
        // Another tool rewrites the identity in place: the inode is the same, the UUID is not.
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db.path());
                Statement s = raw.createStatement()) {
            s.execute("UPDATE _lanes_identity SET uuid = 'someone-else'");
        }

        IdentityMismatchException e = catchThrowableOfType(IdentityMismatchException.class,
                () -> db.query("SELECT count(*) FROM t"));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("someone-else");
        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
        assertThat(catchThrowableOfType(DatabaseDeadException.class,
                () -> db.execute("INSERT INTO t(v) VALUES ('after')"))).isNotNull();
    }

    @Test
    void aBackupOfASwappedFileIsRefusedAndLeavesNothing() throws Exception {
        Database db = runtime.openWithTable("backed.db");
        db.execute("INSERT INTO t(v) VALUES ('before')");
        swapIn(db, impostor("other.db"));
        Path target = runtime.path("copy.db");

        assertThat(catchThrowableOfType(IdentityMismatchException.class, () -> db.backup(target)))
                .isNotNull();
        assertThat(target).doesNotExist();
        assertThat(db.state()).isEqualTo(DatabaseState.DEAD);
    }

    @Test
    void identityCheckFalseInstallsNothingAndChecksNothing() throws Exception {
        Database db = runtime.openWithTable("unchecked.db",
                DatabaseOptions.builder().identityCheck(false).build());
        db.execute("INSERT INTO t(v) VALUES ('before')");
        // Asked on the writer: a reader opened now would keep the old file open after the swap.
        int tables = db.maintenance(c -> {
            try (Statement s = c.createStatement();
                    java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master "
                            + "WHERE name = '_lanes_identity'")) {
                rs.next();
                return rs.getInt(1);
            }
        });
        assertThat(tables).as("no identity table").isZero();
        swapIn(db, impostor("swapped-in.db"));

        assertThat(countOf(db, "impostor")).as("the swap went unnoticed").isEqualTo(1);
        assertThat(db.state()).isEqualTo(DatabaseState.RUNNING);
    }

    /**
     * Moves {@code file} over the database, the way a restore does it: the live database's WAL is
     * emptied first (a WAL left with frames beside another file would be read into it, whatever
     * Lanes does), then the rename replaces the file while Lanes holds it open.
     */
    private static void swapIn(Database db, Path file) throws Exception {
        db.maintenance(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            return null;
        });
        Files.move(file, db.path(), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** Another database, in WAL mode, with the same table and one row 'impostor'. */
    private Path impostor(String name) throws Exception {
        Path file = runtime.path(name);
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = raw.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            s.execute("INSERT INTO t(v) VALUES ('impostor')");
        }
        return file;
    }
}

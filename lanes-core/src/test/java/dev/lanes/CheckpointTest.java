package dev.lanes;

import static dev.lanes.TestLanes.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Checkpoint ownership: who may checkpoint the WAL in each {@link CheckpointMode}, {@link
 * Database#checkpoint()}, and what diagnostics report. The long-running bound on WAL growth is
 * in {@link CheckpointWalGrowthTest}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckpointTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    static DatabaseOptions mode(CheckpointMode mode) {
        return DatabaseOptions.builder().checkpointMode(mode).build();
    }

    @ParameterizedTest
    @EnumSource(CheckpointMode.class)
    void theWriterAutocheckpointsInAutoModeAsABackstopInDedicatedModeAndNeverInExternalMode(
            CheckpointMode mode) {
        Database db = runtime.openWithTable(mode + ".db", mode(mode));
        int pages = db.maintenance(c -> {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("PRAGMA wal_autocheckpoint")) {
                rs.next();
                return rs.getInt(1);
            }
        });
        // DEDICATED: 16 MiB, four times the background checkpointer's threshold
        assertThat(pages).isEqualTo(mode == CheckpointMode.AUTO ? 1000
                : mode == CheckpointMode.DEDICATED ? 4096 : 0);
        assertThat(db.diagnostics().checkpoints().mode()).isEqualTo(mode);
    }

    @Test
    void checkpointCopiesTheWalIntoTheDatabaseAndShowsInDiagnostics() {
        // AUTO: 200 KiB stays under SQLite's mark, and no background checkpoint races this one.
        Database db = runtime.openWithTable("manual.db", mode(CheckpointMode.AUTO));
        insertKilobytes(db, 200);
        DatabaseDiagnostics.Checkpoints before = db.diagnostics().checkpoints();
        assertThat(before.walBytes()).isGreaterThan(200 * 1024);

        CheckpointResult r = db.checkpoint();

        assertThat(r.busy()).isFalse();
        assertThat(r.walFrames()).isPositive();
        assertThat(r.checkpointedFrames()).isEqualTo(r.walFrames());
        assertThat(r.complete()).isTrue();
        DatabaseDiagnostics.Checkpoints after = db.diagnostics().checkpoints();
        assertThat(after.last()).contains(r);
        assertThat(after.lastMode()).contains("PASSIVE");
        assertThat(after.lastAt()).isPresent();
        assertThat(after.completed()).isGreaterThanOrEqualTo(1);
        assertThat(after.failures()).isZero();
    }

    @Test
    void externalModeRefusesCheckpointsAndTheWalOnlyGrows() {
        Database db = runtime.openWithTable("external.db", mode(CheckpointMode.EXTERNAL));
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                db::checkpoint);
        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("EXTERNAL");

        // 6 MiB: past SQLite's 1000-page autocheckpoint, which would have reset the WAL in AUTO.
        long last = 0;
        for (int i = 0; i < 6; i++) {
            insertKilobytes(db, 1024);
            long wal = db.diagnostics().checkpoints().walBytes();
            assertThat(wal).as("WAL after %d MiB", i + 1).isGreaterThan(last);
            last = wal;
        }
        assertThat(last).isGreaterThan(6L * 1024 * 1024);
        assertThat(db.diagnostics().checkpoints().last()).isEmpty();
    }

    @Test
    void autoModeKeepsTheWalNearSqlitesBoundWithoutAnyHelp() {
        Database db = runtime.openWithTable("auto.db", mode(CheckpointMode.AUTO));
        for (int i = 0; i < 12; i++) {
            insertKilobytes(db, 1024);
        }
        // 1000 pages of 4 KiB, plus the transaction that crossed the mark.
        assertThat(db.diagnostics().checkpoints().walBytes()).isLessThan(6L * 1024 * 1024);
    }

    @Tag("slow") // timing: waits out the checkpointer's real quiet period
    @Test
    void dedicatedModeTruncatesTheWalOnceTheDatabaseIsQuiet() {
        Database db = runtime.openWithTable("quiet.db", mode(CheckpointMode.DEDICATED));
        for (int i = 0; i < 5; i++) { // past the checkpointer's 4 MiB
            insertKilobytes(db, 1024);
        }
        assertThat(db.diagnostics().checkpoints().walBytes()).isPositive();

        awaitTrue("the background checkpointer to truncate the quiet WAL",
                () -> db.diagnostics().checkpoints().lastMode().equals(
                        java.util.Optional.of("TRUNCATE")));

        DatabaseDiagnostics.Checkpoints c = db.diagnostics().checkpoints();
        assertThat(c.last()).hasValueSatisfying(r -> assertThat(r.busy()).isFalse());
        assertThat(c.walBytes()).isZero();
        awaitTrue("the checkpointer's connection to close once the WAL is truncated",
                () -> runtime.lanes().diagnostics().openConnections() == 1);
        assertThat(TestLanes.scalar(db, "SELECT count(*) FROM t")).isEqualTo(5 * 1024);
    }

    @Tag("slow") // timing: waits for a real checkpointer tick
    @Test
    void closingADedicatedDatabaseClosesTheCheckpointersConnection() {
        Database db = runtime.openWithTable("closing.db", mode(CheckpointMode.DEDICATED));
        for (int i = 0; i < 5; i++) { // past the checkpointer's 4 MiB
            insertKilobytes(db, 1024);
        }
        awaitTrue("a background checkpoint",
                () -> db.diagnostics().checkpoints().completed() > 0);
        assertThat(runtime.lanes().diagnostics().openConnections()).isPositive();
        db.close();
        assertThat(runtime.lanes().diagnostics().openConnections())
                .as("no connection outlives close")
                .isZero();
        assertThat(Files.exists(Path.of(db.path() + "-wal"))).as("the last close removed the WAL")
                .isFalse();
    }

    /** Inserts {@code n} rows of one KiB each, in one write. */
    static void insertKilobytes(Database db, int n) {
        db.write(c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                for (int i = 0; i < n; i++) {
                    s.setString(1, "k".repeat(1024));
                    s.executeUpdate();
                }
            }
            return null;
        });
    }
}

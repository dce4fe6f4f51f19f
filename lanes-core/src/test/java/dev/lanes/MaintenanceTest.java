package dev.lanes;

import static dev.lanes.TestLanes.countOf;
import static dev.lanes.TestLanes.insert;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Statements SQLite refuses inside a transaction run through maintenance, on the writer lane. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MaintenanceTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("maint.db");
    }

    @Test
    void vacuumRunsThroughMaintenanceAndReclaimsFreePages() {
        db.write(c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                for (int i = 0; i < 2000; i++) {
                    s.setString(1, "x".repeat(500));
                    s.executeUpdate();
                }
            }
            return null;
        });
        db.execute("DELETE FROM t");
        assertThat(scalar(db, "PRAGMA freelist_count")).isPositive();

        db.maintenance(c -> c.createStatement().execute("VACUUM"));

        assertThat(scalar(db, "PRAGMA freelist_count")).isZero();
        assertThat(db.write(insert("after-vacuum"))).isEqualTo("after-vacuum");
    }

    @Test
    void walCheckpointTruncateRunsThroughMaintenanceAndEmptiesTheWal() throws Exception {
        for (int i = 0; i < 50; i++) {
            db.write(insert("row-" + i));
        }
        Path wal = Path.of(db.path() + "-wal");
        assertThat(Files.size(wal)).isPositive();

        int[] result = db.maintenance(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                rs.next();
                return new int[] {rs.getInt(1), rs.getInt(2), rs.getInt(3)};
            }
        });

        assertThat(result[0]).as("checkpoint not blocked").isZero();
        assertThat(Files.size(wal)).as("WAL truncated").isZero();
        assertThat(scalar(db, "SELECT count(*) FROM t WHERE v LIKE 'row-%'")).isEqualTo(50);
    }

    @Test
    void maintenanceReturnsItsBodysValueAndCountsAsCommitted() {
        long before = db.diagnostics().writer().counters().committed();
        String mode = db.maintenance(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA journal_mode")) {
                rs.next();
                return rs.getString(1);
            }
        });
        assertThat(mode).isEqualToIgnoringCase("wal");
        assertThat(db.diagnostics().writer().counters().committed()).isEqualTo(before + 1);
    }

    @Test
    void aMaintenanceBodyThatLeavesATransactionOpenPoisonsTheWriter() {
        LanesException e = catchThrowableOfType(LanesException.class, () -> db.maintenance(c -> {
            c.unwrap(org.sqlite.SQLiteConnection.class).createStatement().execute("BEGIN");
            return null;
        }));

        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
        DatabaseDiagnostics d = db.diagnostics();
        assertThat(d.writer().poisoned()).isTrue();
        assertThat(d.writer().poisonCause()).isPresent();
        WriterPoisonedException later = catchThrowableOfType(WriterPoisonedException.class,
                () -> db.write(insert("later")));
        assertThat(later.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
    }

    @Test
    void maintenanceRefusesTransactionControlLikeAnyBody() {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.maintenance(c -> c.createStatement().execute("BEGIN")));
        assertThat(e).isNotNull();
        assertThat(db.diagnostics().writer().poisoned()).isFalse();
        assertThat(db.write(insert("ok"))).isEqualTo("ok");
        assertThat(countOf(db, "ok")).isEqualTo(1);
    }
}

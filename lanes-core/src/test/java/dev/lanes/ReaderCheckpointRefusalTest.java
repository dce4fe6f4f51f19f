package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reader never checkpoints. A read-only connection can run a checkpoint that copies nothing,
 * and even truncate the WAL, right after a complete one (SQLite only fails it when it must write
 * the database file): exactly the second checkpoint of SQLite's WAL-reset bug. So every way SQL
 * reaches a reader refuses {@code PRAGMA wal_checkpoint}, and the WAL stays as it was.
 */
class ReaderCheckpointRefusalTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    private Database db;

    /** Frames in the WAL, all of them copied: a checkpoint now would copy nothing. */
    @BeforeEach
    void walFullyCheckpointed() {
        db = runtime.open("r.db", DatabaseOptions.builder()
                .checkpointMode(CheckpointMode.DEDICATED).build());
        db.execute("CREATE TABLE t(v)");
        db.execute("INSERT INTO t(v) VALUES (1)");
        assertThat(db.checkpoint().complete()).isTrue();
        assertThat(walBytes()).isPositive();
    }

    private long walBytes() {
        return db.diagnostics().checkpoints().walBytes();
    }

    @Test
    void aQueryIsRefused() {
        Throwable refused = catchThrowable(() -> db.query("PRAGMA wal_checkpoint(TRUNCATE)"));
        assertThat(refused).isInstanceOf(LanesException.class);
        assertThat(((LanesException) refused).outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(walBytes()).as("the WAL was not truncated").isPositive();
    }

    @Test
    void aReadBodyIsRefused() {
        Throwable refused = catchThrowable(() -> db.read(c -> {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                return rs.next();
            }
        }));
        assertThat(refused).isNotNull();
        assertThat(walBytes()).as("the WAL was not truncated").isPositive();
    }

    @Test
    void aReadOnlyJdbcTransactionIsRefused() throws Exception {
        DataSource ds = db.dataSource();
        Throwable refused;
        try (Connection c = ds.getConnection()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            refused = catchThrowable(() -> {
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                    rs.next();
                }
            });
            c.rollback();
        }
        assertThat(refused).isNotNull();
        assertThat(walBytes()).as("the WAL was not truncated").isPositive();
    }
}

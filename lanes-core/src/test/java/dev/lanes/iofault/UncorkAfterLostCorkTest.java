package dev.lanes.iofault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A defect {@link IoFaultOutcomesTest} found: a corked write whose statement fails with an I/O
 * error while its transaction spills pages ({@code SQLITE_IOERR_WRITE} from a failing pwrite) ends
 * the cork's outer transaction, losing the writes corked before it. Lanes then opens a fresh outer
 * transaction for the writes corked after it, and {@code uncork()} commits those and throws {@link
 * WriteFailedException} {@code ROLLED_BACK}, although {@link Database#uncork()} promises that a
 * failed uncork means "the corked writes did not persist" and {@code ROLLED_BACK} means "nothing
 * of it persisted; retrying cannot duplicate it": an application that redoes its corked work
 * after that failure writes the later part twice.
 *
 * <p>Reproduced here without libfiu: a conflict clause {@code ON CONFLICT ROLLBACK} ends the
 * transaction the same way an I/O error does. Public API only.
 */
@Timeout(30)
class UncorkAfterLostCorkTest {
    @TempDir Path dir;

    @Test
    void uncorkFailedRolledBackWhileItCommittedTheWritesCorkedAfterTheLoss() {
        try (Lanes lanes = Lanes.builder().name("cork-loss").maxThreads(2).build()) {
            Database db = lanes.open(dir.resolve("cork-loss.db"));
            db.execute("CREATE TABLE t(v TEXT)");
            db.execute("CREATE TABLE r(k TEXT UNIQUE ON CONFLICT ROLLBACK)");
            db.execute("INSERT INTO r(k) VALUES ('taken')");

            db.cork();
            db.execute("INSERT INTO t(v) VALUES ('corked-early')");
            LanesException culprit = catchThrowableOfType(LanesException.class,
                    () -> db.execute("INSERT INTO r(k) VALUES ('taken')"));
            assertThat(culprit).as("the conflicting write fails").isNotNull();
            try {
                db.execute("INSERT INTO t(v) VALUES ('corked-late')");
            } catch (LanesException refused) {
                // refusing writes after the loss would be one honest fix; they must not persist
            }
            LanesException uncork = catchThrowableOfType(LanesException.class, db::uncork);

            assertThat(uncork).as("uncork reports the lost corked writes").isNotNull();
            assertThat(uncork.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
            assertThat(count(db, "corked-early")).isZero();
            assertThat(count(db, "corked-late"))
                    .as("uncork() failed ROLLED_BACK: none of the corked writes may persist")
                    .isZero();
        }
    }

    private static long count(Database db, String v) {
        return db.query("SELECT count(*) AS n FROM t WHERE v = ?", v).get(0).getLong("n");
    }
}

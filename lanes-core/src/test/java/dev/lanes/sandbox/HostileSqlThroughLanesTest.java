package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.SqlFunction;
import dev.lanes.WriteFailedException;
import dev.lanes.internal.guard.HostileSql;
import dev.lanes.internal.sql.text.Texts;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated hostile texts of the guard fuzzing ({@link HostileSql}) through a real runtime:
 * {@code db.query}, read bodies and write bodies (which throw after running the text, so that
 * nothing of them may persist). Every failure is a typed {@link LanesException}; whatever the
 * read guard lets run changes nothing; the write guard refuses every text with transaction
 * control; afterwards the database holds exactly what it held, and works.
 *
 * <p>Seeded as {@code GuardFuzzTest} is: {@code -Dlanes.fuzz.seed}, {@code
 * -Dlanes.fuzz.samples} (default 300 here).
 */
@Timeout(120)
class HostileSqlThroughLanesTest {
    static final int SAMPLES = Integer.getInteger("lanes.fuzz.samples", 300);

    @TempDir Path dir;
    Lanes lanes;
    Database db;
    long seed;
    Path backupTarget;
    String original;

    /** Thrown by write bodies after the text ran: the request must then roll back whole. */
    static final class BodyEnded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BodyEnded() {
            super("the body ran the text and ends here", null, false, false);
        }
    }

    @BeforeEach
    void start() {
        Long fixed = Long.getLong("lanes.fuzz.seed");
        seed = fixed != null ? fixed : new SplittableRandom().nextLong();
        backupTarget = dir.resolve("driver-backup.db");
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "hostile.db", DatabaseOptions.builder().readers(2).build());
        db.executeScript("CREATE TABLE u(a); CREATE INDEX t_v ON t(v); "
                + "CREATE VIEW w AS SELECT * FROM t; CREATE VIRTUAL TABLE f USING fts5(body); "
                + "INSERT INTO t(v) VALUES ('one'), ('two'); INSERT INTO u VALUES (1); "
                + "INSERT INTO f(body) VALUES ('x y')");
        original = state();
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    /** Everything a text could change in the file: rows, schema, header fields, journal mode. */
    String state() {
        return db.query("SELECT (SELECT group_concat(id || ':' || v, ',') FROM t), "
                + "(SELECT group_concat(a, ',') FROM u), "
                + "(SELECT group_concat(type || name || ifnull(sql, ''), ';') FROM sqlite_master), "
                + "(SELECT * FROM pragma_user_version), (SELECT * FROM pragma_application_id), "
                + "(SELECT * FROM pragma_journal_mode)").get(0).toString();
    }

    @Test
    void hostileTextsThroughQueriesReadsAndWritesLeaveTheDatabaseAsItWas() {
        HostileSql gen = new HostileSql(seed, backupTarget.toString());
        int refusedReads = 0;
        int refusedWrites = 0;
        int emptyTexts = 0;
        for (int i = 0; i < SAMPLES; i++) {
            String sql = gen.any().sql();
            String shown = HostileSql.printable(sql) + " (seed " + seed + ")";
            boolean readRefused = Texts.refusal(sql) != null;
            if (Texts.noStatement(sql)) {
                // nothing for SQLite to run, refused as such on every path before any other rule
                for (Runnable r : List.<Runnable>of(() -> db.query(sql),
                        () -> db.read(c -> c.createStatement().executeUpdate(sql)),
                        () -> db.write(bodyThatEnds(sql)))) {
                    assertThat(failureOf(r)).as("%s", shown)
                            .isInstanceOf(InvalidRequestException.class)
                            .hasMessageContaining("without a statement");
                }
                emptyTexts++;
                continue;
            }

            Throwable query = failureOf(() -> db.query(sql));
            if (readRefused) {
                assertThat(query).as("db.query of %s", shown)
                        .isInstanceOf(ReadOnlyViolationException.class);
                refusedReads++;
            }
            Throwable read = failureOf(() -> db.read(c -> c.createStatement().executeUpdate(sql)));
            if (readRefused || Texts.driverCommand(sql) != null) {
                assertThat(read).as("read body running %s", shown)
                        .isInstanceOfAny(ReadOnlyViolationException.class,
                                InvalidRequestException.class);
            }
            if (!state().equals(original)) {
                fail("a read changed the database: " + shown);
            }

            Throwable write = failureOf(() -> db.write(bodyThatEnds(sql)));
            assertThat(write).as("a write body that throws always fails: %s", shown)
                    .isNotNull();
            if (Texts.transactionControl(sql) != null) {
                // refused before it ran: as transaction control, or for an earlier rule (the
                // driver's commands are looked for first)
                assertThat(write).as("write body running %s", shown)
                        .isInstanceOf(InvalidRequestException.class)
                        .hasMessageContaining("nothing ran");
                refusedWrites++;
            } else if (write instanceof WriteFailedException && write.getCause()
                    instanceof BodyEnded) {
                // the text ran and the body ended by throwing: rolled back whole
                assertThat(((LanesException) write).outcome().name()).isEqualTo("ROLLED_BACK");
            }
            if (!state().equals(original)) {
                fail("a write body that threw left something behind: " + shown);
            }
            assertThat(db.diagnostics().writer().poisoned()).as("after %s", shown).isFalse();
        }
        assertThat(refusedReads).isPositive();
        assertThat(refusedWrites).isPositive();
        assertThat(emptyTexts).as("texts without a statement").isLessThan(SAMPLES);
        assertThat(backupTarget).doesNotExist();
        assertHealthy(db);
    }

    private static SqlFunction<Object> bodyThatEnds(String sql) {
        return c -> {
            c.createStatement().executeUpdate(sql);
            throw new BodyEnded();
        };
    }

    /** The failure of {@code call}, asserted typed; null when it succeeded. */
    private static Throwable failureOf(Runnable call) {
        try {
            call.run();
            return null;
        } catch (LanesException e) {
            return e;
        } catch (Throwable t) {
            throw new AssertionError("an untyped failure escaped: " + t, t);
        }
    }
}

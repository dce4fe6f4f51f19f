package dev.lanes.internal.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.sql.text.Texts;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property tests of the one guard against SQLite's own verdict: thousands of generated hostile
 * texts ({@link HostileSql}) run through the read and the write policy on a scratch connection,
 * and, whenever the guard refuses one, directly, so that {@link SqliteOracle} can say what SQLite
 * would have done with it.
 *
 * <p>Each test draws its texts from a seed: a new one per run, printed with any failure, and
 * fixed with {@code -Dlanes.fuzz.seed=N} to replay it; {@code -Dlanes.fuzz.samples=N} sets how
 * many texts a test tries (default 600). A failing text is shrunk before it is reported.
 *
 * <p>The generator and its shrinking are written here rather than with jqwik: from 1.10 on
 * jqwik's maintainers ask that it not be used with AI coding agents (its release notes carry an
 * "Anti-AI Usage Clause"; by its user guide the engine prints a line addressed to such agents
 * into every test run), and this project is written with them. The properties stay properties:
 * each test states one, draws its texts from a logged seed, and shrinks a failing text before it
 * reports it.
 *
 * <p>The only false refusals allowed are the deliberately conservative ones of {@link
 * #CONSERVATIVE}, each a documented rule; a refusal of a text SQLite runs as a plain read for any
 * other reason fails the test.
 */
@Timeout(120)
class GuardFuzzTest {
    static final int SAMPLES = Integer.getInteger("lanes.fuzz.samples", 600);

    @TempDir Path dir;
    long seed;
    Path backupTarget;
    SqliteOracle reader;
    SqliteOracle writer;

    /**
     * The deliberate refusals of texts SQLite would run on a reader as a plain read, by the
     * phrase the classifier refuses them with. Each is conservative on purpose:
     * <ul>
     *   <li>transaction control: a read owns its snapshot; {@code SAVEPOINT} inside it runs, but
     *       the runtime's {@code COMMIT} must end what it began;
     *   <li>a pragma assignment, named or {@code EXPLAIN}ed: it changes a connection later reads
     *       share (or, like {@code soft_heap_limit}, the process), even where it changes nothing
     *       SQLite reports;
     *   <li>{@code PRAGMA optimize}, {@code wal_checkpoint}, {@code incremental_vacuum}: they act
     *       when named, even if on this database there was nothing to do;
     *   <li>{@code ATTACH}/{@code DETACH}: a reader's set of databases is the runtime's;
     *   <li>DDL, refused by its kind: {@code DROP … IF EXISTS} of nothing, or {@code CREATE …
     *       IF NOT EXISTS} of what exists, writes nothing, but only the schema at the time says
     *       so.
     *   <li>a pragma Lanes' pragma table does not place: SQLite ignores a name it does not know,
     *       but a newer SQLite may know it, and what it does there is unknown until the table
     *       says.
     * </ul>
     * Besides these, a text without any statement (white space, comments, semicolons, or
     * anything after a leading NUL), which SQLite runs as nothing but sqlite-jdbc fails, leaving
     * the connection unclosable ({@code Rule.NO_STATEMENT}); a text holding a lone UTF-16
     * surrogate, which SQLite would store as {@code ?}; and a text whose refused
     * statement stands after a NUL: SQLite reads no further
     * than the first NUL, the guard checks the whole text ({@link #refusedOnlyAfterANul}).
     */
    static final List<String> CONSERVATIVE = List.of("transaction control (", "a pragma assignment (",
            "EXPLAIN of a pragma assignment (", "PRAGMA optimize", "PRAGMA wal_checkpoint",
            "PRAGMA incremental_vacuum", "ATTACH", "DETACH", "DDL (");

    @BeforeEach
    void start() throws SQLException {
        Long fixed = Long.getLong("lanes.fuzz.seed");
        seed = fixed != null ? fixed : new SplittableRandom().nextLong();
        backupTarget = dir.resolve("driver-backup.db");
        reader = new SqliteOracle(dir, SqliteOracle.Mode.READER);
        writer = new SqliteOracle(dir, SqliteOracle.Mode.WRITER);
    }

    @AfterEach
    void stop() throws SQLException {
        reader.close();
        writer.close();
        assertThat(backupTarget).as("the driver's backup command must never have run")
                .doesNotExist();
    }

    HostileSql texts() {
        return new HostileSql(seed, backupTarget.toString());
    }

    @Test
    void theReadGuardNeverLetsAWriteOrTransactionControlReachSqlite() throws Exception {
        HostileSql gen = texts();
        int refused = 0;
        for (int i = 0; i < SAMPLES; i++) {
            HostileSql.Text text = gen.any();
            SqliteOracle.Guarded g = reader.throughGuard(text.sql());
            if (g.refusal() != null) {
                refused++;
                assertTypedRefusal(text, g.refusal());
            } else if (g.verdict().notARead()) {
                report("the read guard let a text reach SQLite that " + describe(g.verdict()),
                        text, sql -> readerLetThrough(sql));
            }
        }
        assertThat(refused).as("generated texts the read guard refused (seed %d)", seed)
                .isPositive();
    }

    @Test
    void theReadGuardRefusesWhatSqliteRunsAsAPlainReadOnlyByADocumentedRule() throws Exception {
        HostileSql gen = texts();
        for (int i = 0; i < SAMPLES; i++) {
            HostileSql.Text text = gen.any();
            SqliteOracle.Guarded g = reader.throughGuard(text.sql());
            if (g.refusal() != null && g.verdict().plainRead()
                    && !conservative(text.sql(), g.refusal())) {
                report("the read guard refused a text SQLite runs as a plain read ("
                        + g.refusal().getMessage() + ")", text, sql -> falselyRefusedOnReader(sql));
            }
        }
    }

    @Test
    void theWriteGuardNeverLetsTransactionControlRunInABody() throws Exception {
        HostileSql gen = texts();
        int refused = 0;
        for (int i = 0; i < SAMPLES; i++) {
            HostileSql.Text text = gen.any();
            SqliteOracle.Guarded g = writer.throughGuard(text.sql());
            if (g.refusal() != null) {
                refused++;
                assertTypedRefusal(text, g.refusal());
            } else if (g.verdict().transactionControl()) {
                report("the write guard let transaction control run", text,
                        sql -> writerLetThrough(sql));
            }
        }
        assertThat(refused).as("generated texts the write guard refused (seed %d)", seed)
                .isPositive();
    }

    @Test
    void theWriteGuardRefusesTransactionControlOnlyWhereSqliteWouldRunIt() throws Exception {
        HostileSql gen = texts();
        for (int i = 0; i < SAMPLES; i++) {
            HostileSql.Text text = gen.any();
            SqliteOracle.Guarded g = writer.throughGuard(text.sql());
            if (falseTransactionControlRefusal(text.sql(), g)) {
                report("the write guard refused as transaction control a text SQLite runs "
                        + "without any (" + g.refusal().getMessage() + ")", text,
                        sql -> falselyRefusedOnWriter(sql));
            }
        }
    }

    @Test
    void aPlainReadIsNeverRefused() throws Exception {
        HostileSql gen = texts();
        for (int i = 0; i < SAMPLES; i++) {
            HostileSql.Text text = gen.plainRead();
            String sql = text.sql();
            SqliteOracle.Verdict raw = reader.run(sql);
            if (!raw.plainRead() || sql.indexOf('\0') >= 0 || Texts.holdsALoneSurrogate(sql)) {
                // a read SQLite rejects (a bad literal, say), or one SQLite reads only up to its
                // NUL (the guard checks past it: the documented rule the other tests apply), or
                // one with a lone surrogate, which SQLite would read as '?' (refused everywhere)
                continue;
            }
            assertThat(Texts.refusal(sql)).as("classifier on %s (seed %d)", text,
                    seed).isNull();
            assertThat(Texts.transactionControl(sql)).as("transaction control in %s (seed %d)",
                    text, seed).isNull();
            SqliteOracle.Guarded onReader = reader.throughGuard(sql);
            assertThat(onReader.refusal()).as("read guard on %s (seed %d)", text, seed).isNull();
            SqliteOracle.Guarded onWriter = writer.throughGuard(sql);
            assertThat(onWriter.refusal()).as("write guard on %s (seed %d)", text, seed).isNull();
        }
    }

    // ------------------------------------------------------------------ the rules

    /** A refusal is typed, says it ran nothing, and names the database. */
    private void assertTypedRefusal(HostileSql.Text text, LanesException e) {
        assertThat(e).as("refusal of %s (seed %d)", text, seed)
                .isInstanceOfAny(ReadOnlyViolationException.class, InvalidRequestException.class);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).startsWith("fuzz: ");
    }

    static boolean isTransactionControlRefusal(LanesException e) {
        return e.getMessage().contains("transaction control (");
    }

    /**
     * Whether the write guard refused {@code sql} as transaction control though SQLite runs all
     * of it and the statement refused does not compile to transaction control.
     */
    private boolean falseTransactionControlRefusal(String sql, SqliteOracle.Guarded g) {
        return g.refusal() != null && isTransactionControlRefusal(g.refusal())
                && g.verdict().code() == 0
                && !refusedOnlyAfterANul(sql, Texts::transactionControl)
                && !firstTransactionControlCompilesSo(writer, sql);
    }

    /**
     * Whether the first statement the lexer takes for transaction control is transaction
     * control to SQLite too (see {@link SqliteOracle#compilesToTransactionControl}).
     */
    private static boolean firstTransactionControlCompilesSo(SqliteOracle oracle, String sql) {
        for (String statement : Texts.statementsOf(sql)) {
            if (Texts.transactionControl(statement) != null) {
                return Boolean.TRUE.equals(oracle.compilesToTransactionControl(statement));
            }
        }
        return false;
    }

    /** Whether the reader's refusal of {@code sql} is one of the documented conservative rules. */
    private boolean conservative(String sql, LanesException refusal) {
        if (Texts.noStatement(sql)) {
            return true; // nothing for SQLite to run: refused before the driver sees it
        }
        if (refusedOnlyAfterANul(sql, Texts::refusal) || Texts.holdsALoneSurrogate(sql)) {
            return true; // SQLite reads neither past a NUL nor a lone surrogate as written
        }
        if (Texts.namesAnUnplacedPragma(sql)) {
            return true; // refused until the pragma table places it
        }
        String why = Texts.refusal(sql);
        if (why == null) {
            return false;
        }
        if (why.startsWith("transaction control (")) {
            return firstTransactionControlCompilesSo(reader, sql); // it must really be one
        }
        return CONSERVATIVE.stream().anyMatch(why::startsWith);
    }

    /**
     * Whether {@code check} finds nothing in {@code sql} cut at its first NUL: SQLite never reads
     * past it, so what the check found stands after it.
     */
    static boolean refusedOnlyAfterANul(String sql, java.util.function.Function<String, String>
            check) {
        int nul = sql.indexOf('\0');
        return nul >= 0 && check.apply(sql.substring(0, nul)) == null;
    }

    // ------------------------------------------------------------------ shrinking predicates

    private boolean readerLetThrough(String sql) {
        try {
            SqliteOracle.Guarded g = reader.throughGuard(sql);
            return g.refusal() == null && g.verdict().notARead();
        } catch (SQLException e) {
            return false;
        }
    }

    private boolean falselyRefusedOnReader(String sql) {
        try {
            SqliteOracle.Guarded g = reader.throughGuard(sql);
            return g.refusal() != null && g.verdict().plainRead() && !conservative(sql, g.refusal());
        } catch (SQLException e) {
            return false;
        }
    }

    private boolean writerLetThrough(String sql) {
        try {
            SqliteOracle.Guarded g = writer.throughGuard(sql);
            return g.refusal() == null && g.verdict().transactionControl();
        } catch (SQLException e) {
            return false;
        }
    }

    private boolean falselyRefusedOnWriter(String sql) {
        try {
            return falseTransactionControlRefusal(sql, writer.throughGuard(sql));
        } catch (SQLException e) {
            return false;
        }
    }

    private void report(String what, HostileSql.Text text, Predicate<String> stillFails) {
        HostileSql.Text small = HostileSql.shrink(text, stillFails);
        fail(what + "\n  text:   " + text + "\n  shrunk: " + small + "\n  seed:   " + seed
                + " (replay with -Dlanes.fuzz.seed=" + seed + ")");
    }

    private static String describe(SqliteOracle.Verdict v) {
        return v.wrote() ? "SQLite refused as a write (" + v.error() + ")"
                : v.transactionControl() ? "controlled the transaction"
                : "changed the connection or the database";
    }
}

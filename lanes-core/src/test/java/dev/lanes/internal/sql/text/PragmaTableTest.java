package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.internal.sql.text.PragmaTable.Use;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one pragma table against every pragma the bundled SQLite knows ({@code PRAGMA
 * pragma_list}): each is placed, so a newer SQLite's new pragma fails this test until the table
 * says what it may do (until then it is refused everywhere); and every row is enforced as it
 * reads, in every spelling, on every place, and by {@code DatabaseOptions.pragma}.
 */
class PragmaTableTest {
    /** The places a statement can run that write. */
    static final List<StatementPolicy> CLUSTER_WRITERS = List.of(StatementPolicy.CLUSTER_WRITER,
            StatementPolicy.CLUSTER_WRITE_BODY, StatementPolicy.CLUSTER_SCRIPT);
    static final List<StatementPolicy> WRITERS = List.of(StatementPolicy.WRITER,
            StatementPolicy.WRITE_BODY, StatementPolicy.SCRIPT, StatementPolicy.CLUSTER_WRITER,
            StatementPolicy.CLUSTER_WRITE_BODY, StatementPolicy.CLUSTER_SCRIPT);

    @Test
    void everyPragmaSqliteKnowsIsPlaced() throws SQLException {
        List<String> unplaced = new ArrayList<>();
        for (String name : sqlitePragmas()) {
            if (PragmaTable.of(name) == null) {
                unplaced.add(name);
            }
        }
        assertThat(unplaced).as("pragmas of this SQLite that the table does not place: decide "
                + "what each may do in PragmaTable").isEmpty();
        assertThat(PragmaTable.all()).extracting(PragmaTable.Entry::name)
                .containsAll(sqlitePragmas()).doesNotHaveDuplicates();
    }

    @Test
    void aPragmaTheTableDoesNotPlaceIsRefusedEverywhereInEveryForm() {
        for (String sql : List.of("PRAGMA no_such_pragma", "PRAGMA main.no_such_pragma = 1",
                "pragma \"hexkey\"('00')", "EXPLAIN PRAGMA vdbe_trace = 1")) {
            for (StatementPolicy policy : StatementPolicy.values()) {
                Throwable t = catchThrowable(() -> policy.admit("t.db", StatementShape.of(sql),
                        0));
                assertThat(t).as("%s at %s", sql, policy).isNotNull();
                if (t instanceof InvalidRequestException) {
                    assertThat(t).hasMessageContaining("does not place it");
                } else {
                    assertThat(t).isInstanceOf(ReadOnlyViolationException.class);
                }
            }
        }
    }

    @Test
    void eachRowIsEnforcedInEverySpellingOnEveryPlace() {
        for (PragmaTable.Entry e : PragmaTable.all()) {
            String n = e.name();
            List<String> sets = List.of("PRAGMA " + n + " = 1", "pragma MAIN.\"" + n + "\"(1)",
                    "/* c */ PRAGMA -- d\n [" + n.toUpperCase(java.util.Locale.ROOT) + "]=1",
                    "EXPLAIN QUERY PLAN PRAGMA `" + n + "` = 1", "PRAGMA '" + n + "' = 1");
            for (String sql : sets) {
                StatementShape shape = StatementShape.of(sql);
                for (StatementPolicy policy : WRITERS) {
                    Throwable t = catchThrowable(() -> policy.admit("t.db", shape, 0));
                    if (e.use() == Use.OWNED || e.use() == Use.PROCESS || e.use() == Use.SETUP) {
                        assertThat(t).as("%s at %s", sql, policy)
                                .isInstanceOf(InvalidRequestException.class)
                                .hasMessageContaining("PRAGMA " + n + " is refused");
                    } else if (n.equals("wal_checkpoint") && CLUSTER_WRITERS.contains(policy)) {
                        // the cluster's own rule: a checkpoint through a session aborts the leader
                        assertThat(t).as("%s at %s", sql, policy)
                                .isInstanceOf(InvalidRequestException.class)
                                .hasMessageContaining("refused on a cluster database");
                    } else if (t != null) {
                        assertThat(t.getMessage()).as("%s at %s", sql, policy)
                                .doesNotContain("PRAGMA " + n + " is refused");
                    }
                }
                if (!(e.selects() && sql.contains("(1)"))) { // else the argument selects
                    assertThat(catchThrowable(() -> StatementPolicy.READER.admit("t.db", shape,
                            0))).as("%s on a reader", sql).isNotNull();
                }
            }
            String read = "PRAGMA main." + n;
            Throwable onReader = catchThrowable(() -> StatementPolicy.READER.admit("t.db",
                    StatementShape.of(read), 0));
            if (e.use() == Use.ACTION) {
                assertThat(onReader).as(read).isInstanceOf(ReadOnlyViolationException.class);
            } else {
                assertThat(onReader).as("reading %s is allowed", n).isNull();
            }
            assertThatCode(() -> StatementPolicy.WRITE_BODY.admit("t.db",
                    StatementShape.of(read), 0)).as(read).doesNotThrowAnyException();
        }
    }

    @Test
    void whatTheFileOrTheTransactionHoldsMayBeSetInSqlOnTheWriter() {
        for (String sql : List.of("PRAGMA user_version = 7", "PRAGMA application_id(9)",
                "PRAGMA auto_vacuum = FULL", "PRAGMA defer_foreign_keys = ON",
                "PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA optimize(0x10002)",
                "PRAGMA incremental_vacuum(5)", "PRAGMA table_info(t)")) {
            assertThatCode(() -> StatementPolicy.WRITE_BODY.admit("t.db", StatementShape.of(sql),
                    0)).as(sql).doesNotThrowAnyException();
        }
    }

    @Test
    void theConnectionSetupRefusesWhatTheTableSaysAndTakesTheRest() {
        for (PragmaTable.Entry e : PragmaTable.all()) {
            if (e.setup()) {
                assertThatCode(() -> DatabaseOptions.builder().pragma(e.name(), 1))
                        .as(e.name()).doesNotThrowAnyException();
            } else {
                assertThatThrownBy(() -> DatabaseOptions.builder().pragma(e.name(), 1))
                        .as(e.name()).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("pragma " + e.name())
                        .hasMessageContaining(e.reason());
                assertThat(e.use()).as(e.name()).isIn(Use.OWNED, Use.PROCESS, Use.ACTION);
            }
            if (e.use() == Use.PROCESS) {
                assertThat(e.setup()).as(e.name()).isFalse();
            }
        }
    }

    /** The pragmas of the SQLite that sqlite-jdbc bundles. */
    private static List<String> sqlitePragmas() throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
                ResultSet rs = c.createStatement().executeQuery("PRAGMA pragma_list")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        assertThat(names).hasSizeGreaterThan(50);
        return names;
    }
}

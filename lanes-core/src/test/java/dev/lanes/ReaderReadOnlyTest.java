package dev.lanes;

import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes and transaction control on a reader fail with {@link ReadOnlyViolationException} before
 * SQLite runs them, whichever way they arrive; plain reads, read-only pragmas and {@code WITH …
 * SELECT} go through.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReaderReadOnlyTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();
    Database db;
    long schemaObjects;

    @BeforeEach
    void start() {
        db = runtime.openWithTable("ro.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        schemaObjects = scalar(db, "SELECT count(*) FROM sqlite_master");
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("INSERT INTO t(v) VALUES ('w')", "INSERT"),
                Arguments.of("insert or replace into t(id, v) values (1, 'w')", "INSERT"),
                Arguments.of("INSERT INTO t(id, v) VALUES (1, 'w') "
                        + "ON CONFLICT(id) DO UPDATE SET v = 'u'", "INSERT"),
                Arguments.of("UPDATE t SET v = 'w'", "UPDATE"),
                Arguments.of("DELETE FROM t RETURNING id", "DELETE"),
                Arguments.of("REPLACE INTO t(id, v) VALUES (1, 'w')", "REPLACE"),
                Arguments.of("CREATE TABLE u(a)", "DDL (CREATE)"),
                Arguments.of("CREATE TEMP TABLE u(a)", "DDL (CREATE)"),
                Arguments.of("DROP TABLE t", "DDL (DROP)"),
                Arguments.of("ALTER TABLE t ADD COLUMN w", "DDL (ALTER)"),
                Arguments.of("PRAGMA user_version = 7", "pragma assignment"),
                Arguments.of("PRAGMA main.cache_size=-2000", "pragma assignment"),
                Arguments.of("PRAGMA query_only(0)", "pragma assignment"),
                Arguments.of("PRAGMA wal_checkpoint(TRUNCATE)", "pragma assignment"),
                Arguments.of("PRAGMA wal_checkpoint", "PRAGMA wal_checkpoint"),
                Arguments.of("PRAGMA optimize", "PRAGMA optimize"),
                Arguments.of("ATTACH DATABASE 'other.db' AS other", "ATTACH"),
                Arguments.of("DETACH DATABASE other", "DETACH"),
                Arguments.of("BEGIN IMMEDIATE", "transaction control (BEGIN)"),
                Arguments.of("BEGIN", "transaction control (BEGIN)"),
                Arguments.of("COMMIT", "transaction control (COMMIT)"),
                Arguments.of("END", "transaction control (END)"),
                Arguments.of("ROLLBACK", "transaction control (ROLLBACK)"),
                Arguments.of("SAVEPOINT s", "transaction control (SAVEPOINT)"),
                Arguments.of("RELEASE s", "transaction control (RELEASE)"),
                Arguments.of("VACUUM", "VACUUM"),
                Arguments.of("VACUUM INTO 'copy.db'", "VACUUM"),
                Arguments.of("REINDEX", "REINDEX"),
                Arguments.of("ANALYZE", "ANALYZE"),
                Arguments.of("WITH n(x) AS (SELECT 1) INSERT INTO t(v) SELECT x FROM n",
                        "WITH … INSERT"),
                Arguments.of("WITH RECURSIVE n(x) AS MATERIALIZED (SELECT 1) DELETE FROM t",
                        "WITH … DELETE"),
                Arguments.of("/* a comment */ -- and another\n  delete from t", "DELETE"),
                Arguments.of("SELECT 1; DELETE FROM t", "DELETE"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aRefusedStatementFailsBeforeSqliteRunsItThroughQuery(String sql, String kind) {
        long acquisitionsBefore = db.diagnostics().readers().acquisitions();
        ReadOnlyViolationException e = catchThrowableOfType(ReadOnlyViolationException.class,
                () -> db.query(sql));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).startsWith("ro.db: ").contains(kind).contains("db.write");
        assertThat(e.code()).isEqualTo(ErrorCode.READ_ONLY_VIOLATION);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(db.diagnostics().readers().acquisitions())
                .as("refused before it took a reader").isEqualTo(acquisitionsBefore);
        assertNothingChanged();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aRefusedStatementFailsInsideABodyWhicheverWayItIsRun(String sql, String kind) {
        assertThat(catchThrowable(() -> db.read(c -> c.prepareStatement(sql))))
                .isInstanceOf(ReadOnlyViolationException.class).hasMessageContaining(kind);
        assertThat(catchThrowable(() -> db.read(c -> c.createStatement().execute(sql))))
                .isInstanceOf(ReadOnlyViolationException.class);
        assertThat(catchThrowable(() -> db.read(c -> c.createStatement().executeQuery(sql))))
                .isInstanceOf(ReadOnlyViolationException.class);
        assertThat(catchThrowable(() -> db.read(c -> {
            Statement s = c.createStatement();
            s.addBatch(sql);
            return s.executeBatch();
        }))).isInstanceOf(ReadOnlyViolationException.class);
        assertNothingChanged();
    }

    @Test
    void aRefusalTheBodySwallowedStillFailsTheRead() {
        ReadOnlyViolationException e = catchThrowableOfType(ReadOnlyViolationException.class,
                () -> db.read(c -> {
                    try {
                        c.createStatement().executeUpdate("DELETE FROM t");
                    } catch (ReadOnlyViolationException swallowed) {
                        // a careless body
                    }
                    return "looked fine";
                }));
        assertThat(e).isNotNull();
        assertNothingChanged();
    }

    @Test
    void transactionControlMethodsAreRefused() {
        for (String method : List.of("commit", "rollback", "setAutoCommit", "setSavepoint")) {
            Throwable e = catchThrowable(() -> db.read(c -> {
                switch (method) {
                    case "commit":
                        c.commit();
                        break;
                    case "rollback":
                        c.rollback();
                        break;
                    case "setAutoCommit":
                        c.setAutoCommit(true);
                        break;
                    default:
                        c.setSavepoint();
                }
                return null;
            }));
            assertThat(e).as(method).isInstanceOf(ReadOnlyViolationException.class)
                    .hasMessageContaining(method);
        }
        assertThat(catchThrowable(() -> db.read(c -> {
            c.close();
            return null;
        }))).isInstanceOf(InvalidRequestException.class);
        assertThat(db.<Boolean>read(c -> c.isReadOnly())).isTrue();
        assertThat(db.diagnostics().readers().replacedConnections()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "SELECT v FROM t",
        "  -- leading comment\n select 'DELETE FROM t; INSERT'",
        "VALUES (1), (2)",
        "WITH n(x) AS (SELECT 1) SELECT x FROM n",
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT x "
            + "FROM n",
        "WITH \"insert\"(x) AS (SELECT 1) SELECT x FROM \"insert\"",
        "EXPLAIN QUERY PLAN SELECT * FROM t",
        "PRAGMA table_info(t)",
        "PRAGMA main.index_list(t)",
        "PRAGMA user_version",
        "PRAGMA journal_mode",
        "PRAGMA query_only",
        "PRAGMA integrity_check",
        "SELECT 1;"
    })
    void readsAndReadOnlyPragmasAreAllowed(String sql) {
        assertThat(db.query(sql)).isNotNull();
        assertThat(db.<Integer>read(c -> {
            try (ResultSet rs = c.createStatement().executeQuery(sql)) {
                return rs.getMetaData().getColumnCount();
            }
        })).isPositive();
    }

    @Test
    void queryOnlyIsTheBackstopForWritesTheTextDoesNotShow() {
        // Through the deliberate escape hatch the text is not classified; SQLite refuses it.
        ReadOnlyViolationException e = catchThrowableOfType(ReadOnlyViolationException.class,
                () -> db.read(c -> c.unwrap(org.sqlite.SQLiteConnection.class).createStatement()
                        .executeUpdate("INSERT INTO t(v) VALUES ('sneaky')")));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("SQLite refused a write");
        assertNothingChanged();
    }

    private void assertNothingChanged() {
        assertThat(scalar(db, "SELECT count(*) FROM t")).isEqualTo(1);
        assertThat(db.query("SELECT v FROM t")).extracting(r -> r.getString("v"))
                .containsExactly("x");
        assertThat(scalar(db, "SELECT count(*) FROM sqlite_master")).isEqualTo(schemaObjects);
        assertThat(scalar(db, "PRAGMA user_version")).isZero();
    }
}

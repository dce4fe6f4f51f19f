package dev.lanes.internal.sql.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What may run on a reader, decided from the text alone: a table of SQL texts and the verdict of
 * {@link StatementShape#notARead} for each, null for "only reads".
 */
class ReadClassificationTest {

    static Stream<Arguments> verdicts() {
        return Stream.of(
                // reads
                Arguments.of("SELECT 1", null),
                Arguments.of("values (1), (2)", null),
                Arguments.of("  /* c */ -- d\n select 1", null),
                Arguments.of("EXPLAIN QUERY PLAN SELECT * FROM t", null),
                Arguments.of("", null),
                Arguments.of("-- only a comment", null),
                Arguments.of("SELECT 'delete from t; drop table t'", null),
                Arguments.of("SELECT 1 -- ; DELETE FROM t", null),
                Arguments.of("SELECT 1; SELECT 2", null),
                Arguments.of("FROBNICATE t", null), // unknown: SQLite refuses it
                Arguments.of("COMM\u0131T", null), // SQLite folds ASCII only: not COMMIT
                // writes, in every spelling
                Arguments.of("INSERT INTO t VALUES (1)", "INSERT"),
                Arguments.of("insert or replace into t values (1)", "INSERT"),
                Arguments.of("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", "INSERT"),
                Arguments.of("REPLACE INTO t VALUES (1)", "REPLACE"),
                Arguments.of("UPDATE t SET v = 1 RETURNING *", "UPDATE"),
                Arguments.of("/* x */ delete from t", "DELETE"),
                Arguments.of("SELECT 1; DELETE FROM t", "DELETE"),
                // DDL, files, maintenance
                Arguments.of("CREATE TABLE x(a)", "DDL (CREATE)"),
                Arguments.of("drop table x", "DDL (DROP)"),
                Arguments.of("ALTER TABLE x ADD COLUMN b", "DDL (ALTER)"),
                Arguments.of("ATTACH 'other.db' AS o", "ATTACH"),
                Arguments.of("DETACH o", "DETACH"),
                Arguments.of("VACUUM", "VACUUM"),
                Arguments.of("REINDEX", "REINDEX"),
                Arguments.of("ANALYZE", "ANALYZE"),
                // transaction control
                Arguments.of("BEGIN", "transaction control (BEGIN)"),
                Arguments.of("commit", "transaction control (COMMIT)"),
                Arguments.of("END TRANSACTION", "transaction control (END)"),
                Arguments.of("ROLLBACK TO a", "transaction control (ROLLBACK)"),
                Arguments.of("SAVEPOINT a", "transaction control (SAVEPOINT)"),
                Arguments.of("RELEASE a", "transaction control (RELEASE)"),
                // WITH: the main statement decides
                Arguments.of("WITH c AS (SELECT 1) SELECT * FROM c", null),
                Arguments.of("WITH c AS NOT MATERIALIZED (SELECT 1) SELECT * FROM c", null),
                Arguments.of("WITH c AS (SELECT 'delete') SELECT * FROM c", null),
                Arguments.of("WITH c(x) AS (SELECT 1) INSERT INTO t SELECT x FROM c",
                        "WITH … INSERT"),
                Arguments.of("WITH c AS MATERIALIZED (SELECT 1) DELETE FROM t", "WITH … DELETE"),
                Arguments.of("WITH a AS (SELECT 1), b AS (SELECT 2) UPDATE t SET v = 1",
                        "WITH … UPDATE"),
                Arguments.of("with recursive r(n) as (select 1 union all select n + 1 from r "
                        + "where n < 3) replace into t select n from r", "WITH … REPLACE"),
                // pragmas: a plain read, an assignment, or one that acts when named
                Arguments.of("PRAGMA journal_mode", null),
                Arguments.of("PRAGMA user_version;", null),
                Arguments.of("PRAGMA", null),
                Arguments.of("PRAGMA main.", null),
                Arguments.of("PRAGMA table_info(t)", null),
                Arguments.of("PRAGMA main.table_info(t)", null),
                Arguments.of("PRAGMA \"table_info\"(t)", null),
                Arguments.of("PRAGMA integrity_check(10)", null),
                Arguments.of("PRAGMA journal_mode = WAL",
                        "a pragma assignment (PRAGMA journal_mode = …)"),
                Arguments.of("PRAGMA main.cache_size = 1",
                        "a pragma assignment (PRAGMA cache_size = …)"),
                Arguments.of("pragma cache_size(100)",
                        "a pragma assignment (PRAGMA cache_size(…))"),
                Arguments.of("PRAGMA wal_checkpoint(TRUNCATE)",
                        "a pragma assignment (PRAGMA wal_checkpoint(…))"),
                Arguments.of("PRAGMA optimize", "PRAGMA optimize"),
                Arguments.of("PRAGMA wal_checkpoint", "PRAGMA wal_checkpoint"),
                Arguments.of("pragma incremental_vacuum", "PRAGMA incremental_vacuum"),
                Arguments.of("PRAGMA foo bar", "PRAGMA foo in a form that is not a plain read"),
                Arguments.of("SELECT 1; PRAGMA optimize", "PRAGMA optimize"));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @MethodSource("verdicts")
    void everyStatementKindGetsItsVerdict(String sql, String verdict) {
        assertThat(Texts.refusal(sql)).isEqualTo(verdict);
    }
}

package dev.lanes.sandbox;

import static dev.lanes.sandbox.Sandbox.assertHealthy;
import static dev.lanes.sandbox.Sandbox.openWithTable;
import static dev.lanes.sandbox.Sandbox.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.ReadOnlyViolationException;
import dev.lanes.SqlFunction;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reader cannot change a pragma, whether it persists in the file ({@code user_version}, {@code
 * application_id}, {@code journal_mode}) or lives on the connection later reads share ({@code
 * query_only}, {@code cache_size}), however the pragma is spelled, through {@code db.query} and
 * through every way a read body runs SQL.
 */
@Timeout(60)
class ReaderPragmaTest {
    @TempDir Path dir;
    Lanes lanes;
    Database db;

    @BeforeEach
    void start() {
        lanes = Sandbox.runtime();
        db = openWithTable(lanes, dir, "pragmas.db", DatabaseOptions.builder().readers(2)
                .build());
        db.maintenance(c -> c.createStatement().execute("PRAGMA user_version = 3"));
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "PRAGMA user_version = 5",
        "PRAGMA \"user_version\" = 5",
        "PRAGMA [user_version] = 5",
        "PRAGMA `user_version`(5)",
        "PRAGMA 'user_version' = 5",
        "pragma MAIN.user_version=5",
        "PRAGMA \"main\".\"user_version\" = 5",
        "/* a comment */ PRAGMA -- and another\n user_version = 5",
        "PRAGMA application_id = 7",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA journal_mode(MEMORY)",
        "PRAGMA query_only = 0",
        "PRAGMA query_only(false)",
        "EXPLAIN PRAGMA query_only = 0",
        "EXPLAIN QUERY PLAN PRAGMA cache_size = 7",
        "SELECT 1; PRAGMA user_version = 5",
    })
    void aPragmaChangeIsRefusedOnEveryReadPathAndChangesNothing(String sql) {
        assertThat(catchThrowable(() -> db.query(sql)))
                .isInstanceOf(ReadOnlyViolationException.class).hasMessageContaining("pragma");
        for (SqlFunction<Object> body : List.<SqlFunction<Object>>of(
                c -> c.createStatement().execute(sql),
                c -> c.createStatement().executeUpdate(sql),
                c -> c.prepareStatement(sql).execute(),
                c -> {
                    java.sql.Statement s = c.createStatement();
                    s.addBatch(sql);
                    return s.executeBatch();
                })) {
            assertThat(catchThrowable(() -> db.read(body))).as(sql)
                    .isInstanceOf(ReadOnlyViolationException.class);
        }
        assertUnchanged();
    }

    /** The file's pragmas as they were, and every reader still query-only at its defaults. */
    private void assertUnchanged() {
        assertThat(scalar(db, "PRAGMA user_version")).isEqualTo(3);
        assertThat(scalar(db, "PRAGMA application_id")).isZero();
        assertThat(db.query("PRAGMA journal_mode").get(0).get(0)).isEqualTo("wal");
        // both readers: the one held, and the other, asked while the first is held
        List<Object> settings = db.read(c -> {
            try (ResultSet q = c.createStatement().executeQuery("PRAGMA query_only");
                    ResultSet cache = c.createStatement().executeQuery("PRAGMA cache_size")) {
                q.next();
                cache.next();
                return List.of(q.getInt(1), cache.getInt(1), queryOnlyOnAnotherReader(db));
            }
        });
        assertThat(settings.get(0)).as("query_only").isEqualTo(1);
        assertThat(settings.get(1)).as("cache_size").isEqualTo(-2000);
        assertThat(settings.get(2)).as("the other reader's query_only").isEqualTo(1);
        assertHealthy(db);
    }

    /** query_only on the second reader, asked while the first is held. */
    private static Object queryOnlyOnAnotherReader(Database db) {
        return db.read(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("PRAGMA query_only")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }
}

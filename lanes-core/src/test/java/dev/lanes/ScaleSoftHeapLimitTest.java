package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Process memory: {@code sqliteSoftHeapLimit} sets SQLite's process-wide soft heap
 * limit. Since the limit is process-wide, each test restores the value it found, so that the
 * tests after it in this JVM run with SQLite's setting as it was.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScaleSoftHeapLimitTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    private static final long LIMIT = 48L * 1024 * 1024;

    private long before;

    @BeforeEach
    void remember() throws SQLException {
        before = softHeapLimit(null);
    }

    @AfterEach
    void restore() throws SQLException {
        softHeapLimit(before);
    }

    @Test
    void theLimitSetOnTheBuilderIsSQLitesSoftHeapLimitOnceTheRuntimeOpenedADatabase()
            throws Exception {
        assertThat(before).as("the limit before the test").isNotEqualTo(LIMIT);
        runtime.start(Lanes.builder().name("heap").maxThreads(2)
                .sqliteSoftHeapLimit(LIMIT));
        Database db = runtime.openWithTable("heap.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");

        // On the database's own connections: a reader, and the writer.
        assertThat(db.query("PRAGMA soft_heap_limit").get(0).getLong("soft_heap_limit"))
                .isEqualTo(LIMIT);
        long onWriter = db.write(c -> {
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("PRAGMA soft_heap_limit")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        assertThat(onWriter).isEqualTo(LIMIT);
        // And process-wide: any connection sees it.
        assertThat(softHeapLimit(null)).isEqualTo(LIMIT);
    }

    @Test
    void withoutTheOptionTheRuntimeLeavesSQLitesSettingAlone() throws Exception {
        long own = 40L * 1024 * 1024;
        softHeapLimit(own);
        runtime.start(Lanes.builder().name("no-heap").maxThreads(2));
        Database db = runtime.openWithTable("heap.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(db.query("PRAGMA soft_heap_limit").get(0).getLong("soft_heap_limit"))
                .isEqualTo(own);
    }

    @Test
    void aNegativeLimitIsRefusedAtOnceNamingTheValue() {
        assertThatThrownBy(() -> Lanes.builder().sqliteSoftHeapLimit(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sqliteSoftHeapLimit").hasMessageContaining("-1");
    }

    /** Reads SQLite's soft heap limit on a plain connection, setting it first unless null. */
    private long softHeapLimit(Long set) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
                Statement s = c.createStatement()) {
            if (set != null) {
                s.execute("PRAGMA soft_heap_limit = " + set);
            }
            try (ResultSet rs = s.executeQuery("PRAGMA soft_heap_limit")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}

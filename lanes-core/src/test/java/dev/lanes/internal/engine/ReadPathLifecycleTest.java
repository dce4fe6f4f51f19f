package dev.lanes.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database's read path (its routing and telemetry) is made by its first read, serves every
 * later read while the database is awake, whichever API reads, and goes with the connections
 * when an eviction lets them go; the next read makes a new one and reads the same data.
 */
@Timeout(60)
class ReadPathLifecycleTest {
    @TempDir Path dir;

    @Test
    void anAwakeDatabaseKeepsOneReadPathAndAnEvictedOneHoldsNone() throws Exception {
        try (Lanes lanes = Lanes.builder().name("read-path").maxThreads(2).build()) {
            DatabaseImpl db = (DatabaseImpl) lanes.open(dir.resolve("r.db"));
            db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            db.execute("INSERT INTO t(v) VALUES ('a')");
            assertThat(db.idleRelease().routing()).as("nothing read yet").isNull();

            assertThat(db.query("SELECT v FROM t")).hasSize(1);
            ReadRouting first = db.idleRelease().routing();
            assertThat(first).isNotNull();
            Integer one = db.read(c -> 1);
            assertThat(one).isEqualTo(1);
            assertThat(dataSourceCount(db)).isEqualTo(1);
            assertThat(db.idleRelease().routing()).as("the same path for every read")
                    .isSameAs(first);

            assertThat(db.idleRelease().evictNow()).isTrue();
            assertThat(db.idleRelease().routing()).as("let go with the connections").isNull();

            assertThat(db.queryOne("SELECT v FROM t").orElseThrow().getString("v"))
                    .isEqualTo("a");
            assertThat(db.idleRelease().routing()).isNotNull().isNotSameAs(first);
        }
    }

    private static long dataSourceCount(Database db) throws Exception {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM t");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

package dev.lanes.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parameters of a data source's {@code PreparedStatement} are stored in linear total work:
 * setting a million of them one by one grows the storage a few dozen times, each growth by half,
 * not once per parameter. Counted, not timed.
 */
@Timeout(120)
class ParameterStorageTest {
    @TempDir Path dir;

    @Test
    void settingAMillionParametersOneByOneGrowsTheStorageGeometrically() throws Exception {
        int n = 1_000_000;
        try (Lanes lanes = Lanes.builder().name("params").build()) {
            Database db = lanes.open(dir.resolve("p.db"));
            try (Connection c = db.dataSource().getConnection();
                    JdbcPreparedStatement s = (JdbcPreparedStatement) c.prepareStatement(
                            "SELECT ?")) {
                int growths = 0;
                long copied = 0;
                int capacity = s.parameterCapacity();
                for (int i = 1; i <= n; i++) {
                    s.setInt(i, i);
                    int now = s.parameterCapacity();
                    if (now != capacity) {
                        growths++;
                        copied += capacity; // a growth copies what the storage held
                        assertThat(now).as("growth at parameter %d", i)
                                .isGreaterThanOrEqualTo(capacity + capacity / 2);
                        capacity = now;
                    }
                }
                assertThat(growths).isLessThanOrEqualTo(40); // log1.5(10^6) is 34
                assertThat(copied).isLessThan(3L * n);

                s.clearParameters();
                s.setString(1, "still usable");
                try (ResultSet rs = s.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("still usable");
                }
            }
        }
    }

    @Test
    void aGapInThePositionsSetIsRefusedAsNeverSetAndTheCountIsTheHighestPositionSet()
            throws Exception {
        try (Lanes lanes = Lanes.builder().name("params").build()) {
            Database db = lanes.open(dir.resolve("g.db"));
            try (Connection c = db.dataSource().getConnection();
                    var s = c.prepareStatement("SELECT ?, ?, ?")) {
                s.setInt(3, 3);
                s.setInt(1, 1);
                assertThatThrownBy(s::executeQuery).isInstanceOf(SQLException.class)
                        .hasMessageContaining("parameter 2 was never set")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                                .isEqualTo("07001"));
                s.setNull(2, java.sql.Types.NULL);
                try (ResultSet rs = s.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                    assertThat(rs.getObject(2)).isNull();
                    assertThat(rs.getInt(3)).isEqualTo(3);
                }
            }
        }
    }
}

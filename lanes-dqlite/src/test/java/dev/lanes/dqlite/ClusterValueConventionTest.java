package dev.lanes.dqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.Row;
import dev.lanes.Transaction;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database on a real 3-node dqlite cluster stores every value as a local database does, by
 * Lanes' value convention, through {@code db.execute}, a transaction and a body's {@code
 * PreparedStatement}: the same storage class and the same bytes for a {@code BigDecimal}, a
 * {@code UUID}, an enum, the {@code java.time} types, a {@code Boolean}, a {@code BigInteger}; and
 * it refuses what a local one refuses (a lone surrogate, {@code NaN}) before anything is written,
 * where dqlite's own encoding would store another text, NULL, or refuse the type.
 */
@Tag("slow")
@Timeout(120)
class ClusterValueConventionTest {
    private static final String INSERT = "INSERT INTO v(x) VALUES (?)";
    private static final String STORED =
            "SELECT typeof(x) || ' ' || quote(x) AS s FROM v ORDER BY id DESC LIMIT 1";

    private static LanesOnCluster on;

    @TempDir Path dir;

    /** An enum whose {@code toString} is not its name: stored by its name. */
    enum Shade {
        LIGHT;

        @Override
        public String toString() {
            return "light shade";
        }
    }

    @BeforeAll
    static void start() {
        on = LanesOnCluster.start("cluster-values");
    }

    @AfterAll
    static void stop() {
        if (on != null) {
            on.close();
        }
    }

    private static Database openCluster(String name) {
        Database db = on.open(name, DatabaseOptions.builder());
        db.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, x)");
        return db;
    }

    private static String stored(Database db) {
        return db.queryOne(STORED).map(r -> r.getString("s")).orElseThrow();
    }

    private static Map<String, Object> values() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("BigDecimal", new BigDecimal("1E+3"));
        values.put("UUID", UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e"));
        values.put("enum", Shade.LIGHT);
        values.put("Instant", Instant.parse("2024-05-06T07:08:09.123456789Z"));
        values.put("OffsetDateTime", OffsetDateTime.of(2024, 5, 6, 7, 8, 9, 0,
                ZoneOffset.ofHours(2)));
        values.put("LocalDateTime", LocalDateTime.of(2024, 5, 6, 7, 8, 9));
        values.put("LocalDate", LocalDate.of(2024, 5, 6));
        values.put("Boolean", true);
        values.put("BigInteger", new BigInteger("123456789012345678901234567890"));
        values.put("Short", (short) 7);
        values.put("Long", Long.MIN_VALUE);
        values.put("Double", 0.25);
        values.put("String", "caf\u00e9 \ud83d\ude00");
        values.put("bytes", new byte[] {0, -1, 16});
        return values;
    }

    @Test
    void everyValueIsStoredAsOnALocalDatabaseThroughEveryWritePath() {
        Database local = on.lanes.open(dir.resolve("local.db"));
        local.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, x)");
        Database clustered = openCluster("values-paths");
        List<String> mismatches = new ArrayList<>();
        values().forEach((name, value) -> {
            local.execute(INSERT, value);
            String expected = stored(local);
            clustered.execute(INSERT, value);
            compare(mismatches, name + " db.execute", expected, stored(clustered));
            try (Transaction tx = clustered.begin()) {
                tx.execute(INSERT, value);
                tx.commit();
            }
            compare(mismatches, name + " tx.execute", expected, stored(clustered));
            clustered.write(c -> {
                try (PreparedStatement s = c.prepareStatement(INSERT)) {
                    s.setObject(1, value);
                    return s.executeUpdate();
                }
            });
            compare(mismatches, name + " body setObject", expected, stored(clustered));
        });
        assertThat(mismatches).isEmpty();
        assertThat(clustered.queryOne("SELECT x FROM v WHERE id = 1").map(r -> r.getString("x")))
                .as("plain notation, not the engine's toString").contains("1000");
        Row instant = clustered.queryOne("SELECT x FROM v WHERE id = 10").orElseThrow();
        assertThat(instant.getInstant("x"))
                .isEqualTo(Instant.parse("2024-05-06T07:08:09.123456789Z"));
    }

    private static void compare(List<String> mismatches, String path, String expected,
            String actual) {
        if (!expected.equals(actual)) {
            mismatches.add(path + ": local " + expected + ", cluster " + actual);
        }
    }

    @Test
    void whatALocalDatabaseRefusesIsRefusedBeforeAnythingIsWritten() {
        Database clustered = openCluster("values-refused");
        for (Object bad : List.of("cut \ud83d", Double.NaN, Float.NaN)) {
            assertThatThrownBy(() -> clustered.execute(INSERT, bad)).as(String.valueOf(bad))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("parameter 1");
        }
        assertThat(clustered.queryOne("SELECT count(*) AS n FROM v").orElseThrow().getLong("n"))
                .isZero();
    }
}

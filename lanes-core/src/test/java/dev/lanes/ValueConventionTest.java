package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TimeZone;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lanes' value convention side by side: each value written through every write API (the
 * arguments of {@code db.execute}, a transaction's and {@code executeBatch}'s; the data source's
 * {@code PreparedStatement}; a write body's own driver statement) reads back equal through every
 * read API ({@code Row}'s getters, a record of {@code queryAs}, the data source's {@code
 * ResultSet}, a read body's own driver {@code ResultSet}), to the precision the write path keeps. The JVM runs in a zone with a half-hour
 * offset, so that a reading that mixes up UTC and the JVM's zone shows.
 */
@Timeout(60)
class ValueConventionTest {
    private static final String INSERT = "INSERT INTO v(x) VALUES (?)";
    private static final String LAST = "SELECT x FROM v ORDER BY id DESC LIMIT 1";

    @TempDir Path dir;
    private TimeZone zone;
    private Lanes lanes;
    private Database db;

    record AtInstant(Instant x) {}

    record AtLocalDateTime(LocalDateTime x) {}

    record AtLocalDate(LocalDate x) {}

    record AtOffsetDateTime(OffsetDateTime x) {}

    enum Colour { RED, GREEN }

    /** Writes one value into a new row of {@code v}. */
    private interface Write {
        void write(Database db, Object value) throws SQLException;
    }

    /** Reads the newest row's {@code x}. */
    private interface Read {
        Object read(Database db) throws SQLException;
    }

    /** A write path: its name, how it writes, and the precision it keeps of a value. */
    private record WritePath(String name, Write write, UnaryOperator<Object> kept) {
        static WritePath exact(String name, Write write) {
            return new WritePath(name, write, UnaryOperator.identity());
        }
    }

    private record ReadPath(String name, Read read) {}

    @BeforeEach
    void open() {
        zone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/St_Johns"));
        lanes = Lanes.builder().name("values").maxThreads(4).build();
        db = lanes.open(dir.resolve("values.db"));
        db.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, x)");
    }

    @AfterEach
    void close() {
        lanes.close();
        TimeZone.setDefault(zone);
    }

    // ------------------------------------------------------------------ write paths

    /** The paths through which Lanes binds the value: its own arguments and the data source. */
    private static List<WritePath> lanesWrites() {
        return List.of(
                WritePath.exact("db.execute", (db, v) -> db.execute(INSERT, v)),
                WritePath.exact("tx.execute", (db, v) -> {
                    try (Transaction tx = db.begin()) {
                        tx.execute(INSERT, v);
                        tx.commit();
                    }
                }),
                WritePath.exact("executeBatch",
                        (db, v) -> db.executeBatch(List.of(Statement.of(INSERT, v)))),
                WritePath.exact("dataSource setObject",
                        (db, v) -> dataSource(db, s -> s.setObject(1, v))));
    }

    /** The paths for any value: Lanes' own, and a write body's driver {@code setObject}. */
    private static List<WritePath> writes() {
        List<WritePath> all = new ArrayList<>(lanesWrites());
        all.add(WritePath.exact("body setObject", (db, v) -> body(db, s -> s.setObject(1, v))));
        return all;
    }

    /** An instant's paths: also {@code setTimestamp}, through the data source and a body. */
    private static List<WritePath> instantWrites() {
        List<WritePath> all = new ArrayList<>(writes());
        all.add(WritePath.exact("dataSource setTimestamp", (db, v) -> dataSource(db,
                s -> s.setTimestamp(1, Timestamp.from((Instant) v)))));
        all.add(WritePath.exact("body setTimestamp", (db, v) -> body(db,
                s -> s.setTimestamp(1, Timestamp.from((Instant) v)))));
        return all;
    }

    private interface Setter {
        void set(PreparedStatement s) throws SQLException;
    }

    private static void dataSource(Database db, Setter setter) throws SQLException {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(INSERT)) {
            setter.set(s);
            s.executeUpdate();
        }
    }

    private static void body(Database db, Setter setter) {
        db.write(c -> {
            try (PreparedStatement s = c.prepareStatement(INSERT)) {
                setter.set(s);
                return s.executeUpdate();
            }
        });
    }

    // ------------------------------------------------------------------ read paths

    private interface Getter {
        Object get(ResultSet rs) throws SQLException;
    }

    private static Object resultSet(Database db, Getter getter) throws SQLException {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(LAST);
                ResultSet rs = s.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return getter.get(rs);
        }
    }

    /** Reads the newest row through a read body's own driver result set. */
    private static Object bodyResultSet(Database db, Getter getter) {
        return db.read(c -> {
            try (PreparedStatement s = c.prepareStatement(LAST);
                    ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return getter.get(rs);
            }
        });
    }

    private static Row last(Database db) {
        return db.query(LAST).get(0);
    }

    private static List<ReadPath> instantReads() {
        return List.of(
                new ReadPath("Row.getInstant", db -> last(db).getInstant("x")),
                new ReadPath("Row.get(Instant)", db -> last(db).get("x", Instant.class)),
                new ReadPath("queryAs", db -> db.queryAs(AtInstant.class, LAST).get(0).x()),
                new ReadPath("ResultSet.getTimestamp",
                        db -> resultSet(db, rs -> rs.getTimestamp(1).toInstant())),
                new ReadPath("ResultSet.getObject(Instant)",
                        db -> resultSet(db, rs -> rs.getObject(1, Instant.class))),
                new ReadPath("ResultSet.getObject(OffsetDateTime)", db -> resultSet(db,
                        rs -> rs.getObject(1, OffsetDateTime.class).toInstant())),
                new ReadPath("body ResultSet.getTimestamp",
                        db -> bodyResultSet(db, rs -> rs.getTimestamp(1).toInstant())),
                new ReadPath("body ResultSet.getObject(Instant)",
                        db -> bodyResultSet(db, rs -> rs.getObject(1, Instant.class))));
    }

    private static List<ReadPath> localDateTimeReads() {
        return List.of(
                new ReadPath("Row.getLocalDateTime", db -> last(db).getLocalDateTime("x")),
                new ReadPath("queryAs", db -> db.queryAs(AtLocalDateTime.class, LAST).get(0).x()),
                new ReadPath("ResultSet.getObject(LocalDateTime)",
                        db -> resultSet(db, rs -> rs.getObject(1, LocalDateTime.class))),
                new ReadPath("ResultSet.getTimestamp().toLocalDateTime()",
                        db -> resultSet(db, rs -> rs.getTimestamp(1).toLocalDateTime())),
                new ReadPath("body ResultSet.getObject(LocalDateTime)",
                        db -> bodyResultSet(db, rs -> rs.getObject(1, LocalDateTime.class))));
    }

    private static List<ReadPath> localDateReads() {
        return List.of(
                new ReadPath("Row.getLocalDate", db -> last(db).getLocalDate("x")),
                new ReadPath("queryAs", db -> db.queryAs(AtLocalDate.class, LAST).get(0).x()),
                new ReadPath("ResultSet.getObject(LocalDate)",
                        db -> resultSet(db, rs -> rs.getObject(1, LocalDate.class))),
                new ReadPath("ResultSet.getDate().toLocalDate()",
                        db -> resultSet(db, rs -> rs.getDate(1).toLocalDate())),
                new ReadPath("body ResultSet.getDate().toLocalDate()",
                        db -> bodyResultSet(db, rs -> rs.getDate(1).toLocalDate())));
    }

    private static List<ReadPath> offsetDateTimeReads() {
        return List.of(
                new ReadPath("Row.getOffsetDateTime", db -> last(db).getOffsetDateTime("x")),
                new ReadPath("queryAs",
                        db -> db.queryAs(AtOffsetDateTime.class, LAST).get(0).x()),
                new ReadPath("ResultSet.getObject(OffsetDateTime)",
                        db -> resultSet(db, rs -> rs.getObject(1, OffsetDateTime.class))));
    }

    // ------------------------------------------------------------------ the matrix

    /** Every write path of {@code value} against every read path: the mismatches, as text. */
    private List<String> mismatches(Object value, Object expected, List<WritePath> writes,
            List<ReadPath> reads) {
        List<String> out = new ArrayList<>();
        for (WritePath w : writes) {
            try {
                w.write().write(db, value);
            } catch (Exception e) {
                out.add(value + " written by " + w.name() + " fails: " + e);
                continue;
            }
            Object want = w.kept().apply(expected);
            for (ReadPath r : reads) {
                Object got;
                try {
                    got = r.read().read(db);
                } catch (Exception e) {
                    got = "fails: " + e;
                }
                if (!Objects.deepEquals(want, got)) {
                    out.add(value + " written by " + w.name() + ", read by " + r.name()
                            + ": expected " + show(want) + " but got " + show(got));
                }
            }
        }
        return out;
    }

    private static String show(Object v) {
        return v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v);
    }

    private static final List<Instant> INSTANTS = List.of(
            Instant.parse("2024-05-06T07:08:09.123456789Z"),
            Instant.parse("2024-05-06T07:08:09.123Z"),
            Instant.parse("2024-05-06T07:08:09Z"),
            Instant.EPOCH,
            Instant.parse("1969-12-31T23:59:59.999Z"),
            Instant.parse("1900-02-28T12:00:00.5Z"),
            Instant.parse("1962-01-01T00:00:00Z"),
            Instant.parse("1978-01-11T21:31:40.800Z"),
            Instant.parse("0000-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999999999Z"));

    @Test
    void anInstantWrittenThroughAnyApiReadsBackEqualThroughEveryApi() {
        List<String> mismatches = new ArrayList<>();
        for (Instant i : INSTANTS) {
            mismatches.addAll(mismatches(i, i, instantWrites(), instantReads()));
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void aLocalDateTimeReadsBackAsTheSameWallTimeThroughEveryApi() {
        List<String> mismatches = new ArrayList<>();
        for (LocalDateTime t : List.of(LocalDateTime.parse("2024-05-06T07:08:09.123456789"),
                LocalDateTime.parse("2024-03-10T02:30:00"), // a wall time the JVM's zone skips
                LocalDateTime.parse("1969-12-31T23:59:59.999"),
                LocalDateTime.parse("1900-01-01T00:00:00"))) {
            List<ReadPath> reads = t.getYear() == 2024 && t.getMonthValue() == 3
                    ? localDateTimeReads().subList(0, 3) : localDateTimeReads();
            mismatches.addAll(mismatches(t, t, writes(), reads));
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void aLocalDateReadsBackAsTheSameDateThroughEveryApi() {
        List<String> mismatches = new ArrayList<>();
        for (LocalDate d : List.of(LocalDate.parse("2024-05-06"), LocalDate.parse("1969-12-31"),
                LocalDate.parse("1900-01-01"))) {
            List<WritePath> paths = new ArrayList<>(writes());
            paths.add(WritePath.exact("dataSource setDate", (db, v) -> dataSource(db,
                    s -> s.setDate(1, java.sql.Date.valueOf((LocalDate) v)))));
            mismatches.addAll(mismatches(d, d, paths, localDateReads()));
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void anOffsetDateTimeKeepsItsOffsetThroughEveryApi() {
        List<String> mismatches = new ArrayList<>();
        for (OffsetDateTime t : List.of(OffsetDateTime.parse("2024-05-06T07:08:09.123456789+02:00"),
                OffsetDateTime.parse("1969-12-31T23:59:59-03:30"),
                OffsetDateTime.parse("2024-05-06T07:08:00Z"))) {
            mismatches.addAll(mismatches(t, t, writes(), offsetDateTimeReads()));
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void otherTypesReadBackEqualThroughRowAndResultSet() {
        UUID id = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
        List<String> mismatches = new ArrayList<>();
        mismatches.addAll(mismatches(true, true, writes(), List.of(
                new ReadPath("Row.getBoolean", db -> last(db).getBoolean("x")),
                new ReadPath("ResultSet.getBoolean", db -> resultSet(db, rs -> rs.getBoolean(1))))));
        mismatches.addAll(mismatches(id, id, writes(), List.of(
                new ReadPath("Row.getUuid", db -> last(db).getUuid("x")),
                new ReadPath("ResultSet.getString",
                        db -> UUID.fromString(resultSet(db, rs -> rs.getString(1)).toString())))));
        BigDecimal money = new BigDecimal("12.50");
        mismatches.addAll(mismatches(money, money, writes(), List.of(
                new ReadPath("Row.getBigDecimal", db -> last(db).getBigDecimal("x")),
                new ReadPath("ResultSet.getBigDecimal",
                        db -> resultSet(db, rs -> rs.getBigDecimal(1))))));
        byte[] bytes = {0, -1, 16};
        mismatches.addAll(mismatches(bytes, bytes, writes(), List.of(
                new ReadPath("Row.getBytes", db -> last(db).getBytes("x")),
                new ReadPath("ResultSet.getBytes", db -> resultSet(db, rs -> rs.getBytes(1))))));
        mismatches.addAll(mismatches(Colour.GREEN, Colour.GREEN, writes(), List.of(
                new ReadPath("Row.getEnum", db -> last(db).getEnum("x", Colour.class)),
                new ReadPath("ResultSet.getString",
                        db -> Colour.valueOf(resultSet(db, rs -> rs.getString(1)).toString())))));
        assertThat(mismatches).isEmpty();
    }

    @Test
    void aValueThatReadsBackOtherwiseIsAMismatchOnEveryPath() {
        Instant written = Instant.parse("2024-05-06T07:08:09.123456789Z");
        List<String> mismatches = mismatches(written, written.plusNanos(1), lanesWrites(),
                instantReads());
        assertThat(mismatches).hasSize(lanesWrites().size() * instantReads().size());
    }

    // ------------------------------------------------------------------ numbers as dates

    /** Every instant reading of the newest row, by name. */
    private List<String> instantReadings() {
        List<String> out = new ArrayList<>();
        for (ReadPath r : instantReads()) {
            try {
                out.add(r.name() + " " + r.read().read(db));
            } catch (Exception e) {
                out.add(r.name() + " fails");
            }
        }
        return out;
    }

    private static List<String> everyReading(Instant expected) {
        return instantReads().stream().map(r -> r.name() + " " + expected).toList();
    }

    @Test
    void anIntegerOfEpochMillisReadsAsTheSameInstantThroughRowAndResultSet() {
        db.execute(INSERT, 1_714_979_289_123L); // what the driver's setTimestamp stores
        assertThat(instantReadings())
                .isEqualTo(everyReading(Instant.parse("2024-05-06T07:08:09.123Z")));
    }

    @Test
    void anIntegerOfUnixSecondsReadsAsTheSameInstantThroughRowAndResultSet() {
        db.execute("INSERT INTO v(x) VALUES (unixepoch('2024-05-06 07:08:09'))");
        assertThat(instantReadings())
                .isEqualTo(everyReading(Instant.parse("2024-05-06T07:08:09Z")));
    }

    @Test
    void aBodysDriverSettersStoreDatesAsLanesDoesSoA1970InstantReadsBackEqual() {
        Instant t = Instant.parse("1970-01-01T00:00:01.5Z");
        body(db, s -> s.setTimestamp(1, Timestamp.from(t)));
        assertThat(last(db).get("x")).isEqualTo("1970-01-01 00:00:01.500000000Z");
        assertThat(instantReadings()).isEqualTo(everyReading(t));
        body(db, s -> s.setObject(1, new java.util.Date(t.toEpochMilli())));
        assertThat(instantReadings()).isEqualTo(everyReading(t));
        body(db, s -> s.setDate(1, java.sql.Date.valueOf("1970-01-02")));
        assertThat(last(db).get("x")).isEqualTo("1970-01-02");
        body(db, s -> s.setTime(1, java.sql.Time.valueOf("07:08:09")));
        assertThat(bodyResultSet(db, rs -> rs.getTime(1)))
                .isEqualTo(java.sql.Time.valueOf("07:08:09"));
    }

    /** An enum whose {@code toString} is not its name: Lanes stores the name. */
    enum Shade {
        LIGHT;

        @Override
        public String toString() {
            return "light shade";
        }
    }

    /** The newest row's value as SQLite holds it: its storage class and its SQL literal. */
    private static String stored(Database db) {
        Row r = db.queryOne("SELECT typeof(x) AS t, quote(x) AS q FROM v ORDER BY id DESC LIMIT 1")
                .orElseThrow();
        return r.getString("t") + " " + r.getString("q");
    }

    @Test
    void aBodysDriverSettersStoreEveryValueAsDbExecuteDoes() {
        BigDecimal thousand = new BigDecimal("1E+3");
        Map<String, Setter> setters = new LinkedHashMap<>();
        setters.put("setBigDecimal", s -> s.setBigDecimal(1, thousand));
        setters.put("setObject(BigDecimal)", s -> s.setObject(1, thousand));
        setters.put("setObject(enum)", s -> s.setObject(1, Shade.LIGHT));
        setters.put("setObject(BigInteger)",
                s -> s.setObject(1, new BigInteger("123456789012345678901234567890")));
        setters.put("setObject(Character)", s -> s.setObject(1, 'c'));
        setters.put("setFloat", s -> s.setFloat(1, 0.5f));
        setters.put("setString", s -> s.setString(1, "caf\u00e9 \ud83d\ude00"));
        setters.put("setCharacterStream", s -> s.setCharacterStream(1,
                new java.io.StringReader("caf\u00e9 \ud83d\ude00")));
        Map<String, Object> values = Map.of("setBigDecimal", thousand, "setObject(BigDecimal)",
                thousand, "setObject(enum)", Shade.LIGHT, "setObject(BigInteger)",
                new BigInteger("123456789012345678901234567890"), "setObject(Character)", 'c',
                "setFloat", 0.5f, "setString", "caf\u00e9 \ud83d\ude00", "setCharacterStream",
                "caf\u00e9 \ud83d\ude00");
        List<String> mismatches = new ArrayList<>();
        setters.forEach((name, setter) -> {
            db.execute(INSERT, values.get(name));
            String expected = stored(db);
            body(db, setter);
            String actual = stored(db);
            if (!expected.equals(actual)) {
                mismatches.add(name + ": db.execute stored " + expected + ", the body " + actual);
            }
        });
        assertThat(mismatches).isEmpty();
        assertThat(stored(db)).isEqualTo("text 'caf\u00e9 \ud83d\ude00'");
    }

    @Test
    void aBodysDriverSettersRefuseWhatLanesRefusesAndNothingIsWritten() {
        long before = db.queryOne("SELECT count(*) AS n FROM v").orElseThrow().getLong("n");
        Map<String, Setter> refused = new LinkedHashMap<>();
        refused.put("setString", s -> s.setString(1, "cut \ud83d"));
        refused.put("setNString", s -> s.setNString(1, "cut \ud83d"));
        refused.put("setCharacterStream", s -> s.setCharacterStream(1,
                new java.io.StringReader("cut \ud83d"), 5L));
        refused.put("setDouble(NaN)", s -> s.setDouble(1, Double.NaN));
        refused.put("setObject(NaN)", s -> s.setObject(1, Float.NaN));
        refused.forEach((name, setter) -> assertThatThrownBy(() -> body(db, setter))
                .as(name).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("parameter 1"));
        // a refusal after the body's first insert undoes the body whole, and says so
        assertThatThrownBy(() -> db.write(c -> {
            try (PreparedStatement s = c.prepareStatement(INSERT)) {
                s.setString(1, "whole");
                s.executeUpdate();
                s.setString(1, "cut \ud83d");
                return s.executeUpdate();
            }
        })).isInstanceOfSatisfying(LanesException.class,
                e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK));
        assertThat(db.queryOne("SELECT count(*) AS n FROM v").orElseThrow().getLong("n"))
                .isEqualTo(before);
    }

    @Test
    void anIntegerWithinTheSecondsRangeReadsAsSecondsAndMillisOnlyWhenAskedFor() {
        db.execute(INSERT, 1000L); // what the driver's own setTimestamp stores for 00:00:01
        assertThat(last(db).get("x")).isEqualTo(1000L);
        assertThat(instantReadings())
                .isEqualTo(everyReading(Instant.parse("1970-01-01T00:16:40Z")));
        assertThat(last(db).getInstantFromEpochMillis("x"))
                .isEqualTo(Instant.parse("1970-01-01T00:00:01Z"));
    }

    @Test
    void anIntegerBeyondMillisecondsFailsThroughRowAndResultSet() {
        db.execute(INSERT, 1_714_979_289_123_456L); // microseconds
        assertThat(instantReadings()).allMatch(r -> r.endsWith(" fails"));
    }

    @Test
    void textWithoutAZoneIsUtcToJavaTimeAndTheJvmZoneToJdbcTimestamps() throws SQLException {
        db.execute("INSERT INTO v(x) VALUES ('2024-05-06 07:08:09')"); // as datetime() writes
        Instant utc = Instant.parse("2024-05-06T07:08:09Z");
        assertThat(last(db).getInstant("x")).isEqualTo(utc);
        assertThat(resultSet(db, rs -> rs.getObject(1, Instant.class))).isEqualTo(utc);
        assertThat(resultSet(db, rs -> rs.getTimestamp(1).toLocalDateTime()))
                .isEqualTo(LocalDateTime.parse("2024-05-06T07:08:09"));
        assertThat(resultSet(db, rs -> rs.getTimestamp(1, java.util.Calendar.getInstance(
                TimeZone.getTimeZone("UTC"))).toInstant())).isEqualTo(utc);
        assertThat(utc.atOffset(ZoneOffset.UTC).toLocalDateTime())
                .isEqualTo(last(db).getLocalDateTime("x"));
    }

    @Test
    void timestampsAndDatesOfTheDataSourceAreStoredAsText() throws SQLException {
        dataSource(db, s -> s.setTimestamp(1, Timestamp.from(
                Instant.parse("2024-05-06T07:08:09.123456789Z"))));
        assertThat(last(db).get("x")).isEqualTo("2024-05-06 07:08:09.123456789Z");
        dataSource(db, s -> s.setDate(1, java.sql.Date.valueOf("2024-05-06")));
        assertThat(last(db).get("x")).isEqualTo("2024-05-06");
        dataSource(db, s -> s.setTime(1, java.sql.Time.valueOf("07:08:09")));
        assertThat(last(db).get("x")).isEqualTo("07:08:09");
        assertThat(resultSet(db, rs -> rs.getTime(1))).isEqualTo(java.sql.Time.valueOf("07:08:09"));
    }
}

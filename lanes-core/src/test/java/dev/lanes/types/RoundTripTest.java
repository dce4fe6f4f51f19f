package dev.lanes.types;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Row;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every Java type Lanes binds comes back as it went in, through {@code db.execute} and {@code
 * db.query}, in the columns users declare for it; and what Lanes binds is what SQLite's own date
 * functions read and what sorts as text in time order.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RoundTripTest extends TypesFixture {
    enum Color { RED, GREEN, BLUE_GREEN }

    static final List<Instant> INSTANTS = List.of(
            Instant.EPOCH,
            Instant.ofEpochSecond(-1),
            Instant.ofEpochSecond(-1, 1),                 // just before the epoch, with nanos
            Instant.ofEpochSecond(-86_400 * 365L * 300, 999_999_999),
            Instant.parse("0000-01-01T00:00:00Z"),        // SQLite's first instant
            Instant.parse("0001-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999999999Z"),
            Instant.parse("2024-05-06T07:08:09.123Z"),
            Instant.parse("2024-05-06T07:08:09.123456Z"),
            Instant.parse("2024-05-06T07:08:09.123456789Z"),
            Instant.parse("2024-02-29T23:59:59.000000001Z"),
            Instant.now());

    @Test
    void instantsComeBackExactlyFromUntypedTextAndTimestampColumns() {
        for (String column : List.of("x", "t", "ts")) {
            for (Instant in : INSTANTS) {
                Row row = stored(column, in);
                assertThat(row.getString("type")).as("%s in %s", in, column).isEqualTo("text");
                assertThat(row.getInstant(column)).as("%s in %s", in, column).isEqualTo(in);
                assertThat(row.get(column, Instant.class)).isEqualTo(in);
            }
        }
    }

    @Test
    void anInstantIsWrittenInOneFixedWidthUtcForm() {
        assertThat(stored("x", Instant.parse("2024-05-06T07:08:09.123Z")).getString("x"))
                .isEqualTo("2024-05-06 07:08:09.123000000Z");
        assertThat(stored("x", Instant.EPOCH).getString("x"))
                .isEqualTo("1970-01-01 00:00:00.000000000Z");
        assertThat(stored("x", LocalDateTime.parse("0001-02-03T04:05:06.7")).getString("x"))
                .isEqualTo("0001-02-03 04:05:06.700000000");
        assertThat(stored("x", LocalDate.parse("0987-06-05")).getString("x"))
                .isEqualTo("0987-06-05");
        assertThat(stored("x", OffsetDateTime.parse("2024-05-06T07:08:09-05:30")).getString("x"))
                .isEqualTo("2024-05-06 07:08:09.000000000-05:30");
        assertThat(stored("x", OffsetDateTime.parse("2024-05-06T07:08:09Z")).getString("x"))
                .isEqualTo("2024-05-06 07:08:09.000000000Z");
    }

    @Test
    void localDateTimesDatesAndOffsetDateTimesComeBackExactly() {
        List<LocalDateTime> dateTimes = List.of(LocalDateTime.parse("0001-01-01T00:00"),
                LocalDateTime.parse("9999-12-31T23:59:59.999999999"),
                LocalDateTime.parse("1969-12-31T23:59:59.5"), LocalDateTime.parse("2024-05-06T07:08"),
                LocalDateTime.parse("2024-05-06T07:08:09.000001"));
        List<LocalDate> dates = List.of(LocalDate.parse("0000-01-01"), LocalDate.parse("0001-01-01"),
                LocalDate.parse("9999-12-31"), LocalDate.parse("1969-12-31"),
                LocalDate.parse("2024-02-29"));
        List<OffsetDateTime> offsets = List.of(OffsetDateTime.parse("2024-05-06T07:08:09+02:00"),
                OffsetDateTime.parse("2024-05-06T07:08:09.123456789-05:30"),
                OffsetDateTime.parse("2024-05-06T00:00+14:00"),
                OffsetDateTime.parse("2024-05-06T23:59:59.999-12:00"),
                OffsetDateTime.parse("1970-01-01T00:00Z"),
                OffsetDateTime.parse("0001-01-01T12:00+01:00"));
        for (String column : List.of("x", "t", "ts")) {
            for (LocalDateTime in : dateTimes) {
                assertThat(stored(column, in).getLocalDateTime(column)).isEqualTo(in);
            }
            for (LocalDate in : dates) {
                assertThat(stored(column, in).getLocalDate(column)).isEqualTo(in);
            }
            for (OffsetDateTime in : offsets) {
                Row row = stored(column, in);
                assertThat(row.getOffsetDateTime(column)).isEqualTo(in); // the offset too
                assertThat(row.getInstant(column)).isEqualTo(in.toInstant());
            }
        }
    }

    @Test
    void sqliteDateFunctionsReadWhatLanesBinds() {
        for (Instant in : INSTANTS) {
            Row row = db.query("SELECT unixepoch(?) AS s, strftime('%Y-%m-%d %H:%M:%f', ?) AS f, "
                    + "julianday(?) AS j", in, in, in).get(0);
            assertThat(row.getLong("s")).as("unixepoch(%s)", in)
                    .isEqualTo(Math.floorDiv(in.toEpochMilli(), 1000L));
            // SQLite keeps milliseconds; it rounds the nanoseconds away
            assertThat(row.getInstant("f")).as("strftime(%s)", in).isCloseTo(in,
                    org.assertj.core.api.Assertions.within(1, java.time.temporal.ChronoUnit.MILLIS));
            assertThat(row.getInstant("j")).as("julianday(%s)", in).isCloseTo(in,
                    org.assertj.core.api.Assertions.within(1, java.time.temporal.ChronoUnit.MILLIS));
        }
        OffsetDateTime east = OffsetDateTime.parse("2024-05-06T07:08:09+02:00");
        assertThat(select("datetime(?)", east).getString("v")).isEqualTo("2024-05-06 05:08:09");
        assertThat(select("date(?)", LocalDate.parse("2024-05-06")).getString("v"))
                .isEqualTo("2024-05-06");
        assertThat(select("datetime(?)", LocalDateTime.parse("2024-05-06T07:08:09.5"))
                .getString("v")).isEqualTo("2024-05-06 07:08:09");
    }

    @Test
    void boundInstantsSortAsTextInTimeOrderAlsoBesideSqliteWrittenTimes() {
        Random random = new Random(42);
        List<Instant> in = new ArrayList<>(INSTANTS);
        for (int i = 0; i < 200; i++) {
            in.add(Instant.ofEpochSecond(Temporal.RANGE_START
                    + (long) (random.nextDouble() * Temporal.RANGE_SECONDS), random.nextInt(1_000_000_000)));
        }
        for (Instant t : in) {
            db.execute("INSERT INTO v(t) VALUES (?)", t);
        }
        List<Instant> read = new ArrayList<>();
        for (Row row : db.query("SELECT t FROM v ORDER BY t")) {
            read.add(row.getInstant("t"));
        }
        List<Instant> sorted = new ArrayList<>(in);
        Collections.sort(sorted);
        assertThat(read).containsExactlyElementsOf(sorted);

        // datetime() and CURRENT_TIMESTAMP write 'YYYY-MM-DD HH:MM:SS': the same separator
        db.execute("DELETE FROM v");
        db.execute("INSERT INTO v(t) VALUES (datetime('2024-05-06 07:08:09'))");
        db.execute("INSERT INTO v(t) VALUES (?)", Instant.parse("2024-05-06T07:08:09.5Z"));
        db.execute("INSERT INTO v(t) VALUES (datetime('2024-05-06 07:08:10'))");
        db.execute("INSERT INTO v(t) VALUES (?)", Instant.parse("2024-05-06T07:08:08.999Z"));
        List<Instant> mixed = new ArrayList<>();
        for (Row row : db.query("SELECT t FROM v ORDER BY t")) {
            mixed.add(row.getInstant("t"));
        }
        assertThat(mixed).isSorted().hasSize(4);
        assertThat(db.query("SELECT count(*) AS n FROM v WHERE t > datetime('2024-05-06 07:08:09')")
                .get(0).getLong("n")).isEqualTo(2);
    }

    @Test
    void localDateTimesAndDatesSortAsTextInTimeOrder() {
        Random random = new Random(7);
        List<LocalDateTime> in = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            in.add(LocalDateTime.ofEpochSecond(Temporal.RANGE_START
                    + (long) (random.nextDouble() * Temporal.RANGE_SECONDS),
                    random.nextInt(1_000_000_000), ZoneOffset.UTC));
        }
        for (LocalDateTime t : in) {
            db.execute("INSERT INTO v(t, x) VALUES (?, ?)", t, t.toLocalDate());
        }
        List<LocalDateTime> read = new ArrayList<>();
        for (Row row : db.query("SELECT t FROM v ORDER BY t")) {
            read.add(row.getLocalDateTime("t"));
        }
        List<LocalDateTime> sorted = new ArrayList<>(in);
        Collections.sort(sorted);
        assertThat(read).containsExactlyElementsOf(sorted);
        List<LocalDate> dates = new ArrayList<>();
        for (Row row : db.query("SELECT x FROM v ORDER BY x")) {
            dates.add(row.getLocalDate("x"));
        }
        assertThat(dates).isSorted().hasSize(200);
    }

    @Test
    void uuidsComeBackFromTextAndFromSixteenByteBlobs() {
        List<UUID> uuids = List.of(UUID.randomUUID(), new UUID(0, 0), new UUID(-1, -1),
                UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"));
        for (UUID in : uuids) {
            Row text = stored("t", in);
            assertThat(text.getString("type")).isEqualTo("text");
            assertThat(text.getString("t")).isEqualTo(in.toString());
            assertThat(text.getUuid("t")).isEqualTo(in);
            Row blob = stored("x", dev.lanes.internal.types.Values.uuidBytes(in));
            assertThat(blob.getString("type")).isEqualTo("blob");
            assertThat(blob.getUuid("x")).isEqualTo(in);
        }
        UUID known = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
        // SQLite's own hex literal, most significant byte first
        assertThat(select("x'00112233445566778899AABBCCDDEEFF'").getUuid("v")).isEqualTo(known);
        assertThat(select("'00112233-4455-6677-8899-AABBCCDDEEFF'").getUuid("v")).isEqualTo(known);
    }

    @Test
    void booleansAreZeroAndOneInEveryNumericColumn() {
        for (String column : List.of("x", "i", "b", "n")) {
            Row yes = stored(column, true);
            Row no = stored(column, false);
            assertThat(yes.getString("type")).isEqualTo("integer");
            assertThat(yes.getLong(column)).isEqualTo(1L);
            assertThat(no.getLong(column)).isEqualTo(0L);
            assertThat(yes.getBoolean(column)).isTrue();
            assertThat(no.getBoolean(column)).isFalse();
            assertThat(no.get(column, boolean.class)).isFalse();
        }
        // affinity may store them as REAL or TEXT; 0 and 1 still read as booleans
        assertThat(stored("r", true).getBoolean("r")).isTrue();
        assertThat(stored("t", true).getString("type")).isEqualTo("text");
        assertThat(stored("t", true).getBoolean("t")).isTrue();
        assertThat(select("TRUE").getBoolean("v")).isTrue();
        assertThat(select("FALSE").getBoolean("v")).isFalse();
        assertThat(select("3 > 2").getBoolean("v")).isTrue();
    }

    @Test
    void enumsAreTheirNames() {
        for (Color in : Color.values()) {
            Row row = stored("t", in);
            assertThat(row.getString("t")).isEqualTo(in.name());
            assertThat(row.getEnum("t", Color.class)).isEqualTo(in);
            assertThat(row.get("t", Color.class)).isEqualTo(in);
        }
    }

    @Test
    void bigDecimalsComeBackExactlyAsPlainText() {
        List<String> values = List.of("123456789012345678901234567890.123456789012345678901234567890",
                "-0.000000000000000000000000000001", "0.00", "12.50", "0",
                "-98765432109876543210987654321098765432109876543210");
        for (String column : List.of("x", "t")) {
            for (String v : values) {
                BigDecimal in = new BigDecimal(v);
                Row row = stored(column, in);
                assertThat(row.getString("type")).isEqualTo("text");
                assertThat(row.getBigDecimal(column)).as(v).isEqualTo(in); // scale included
            }
        }
        BigDecimal negativeScale = new BigDecimal("1.23E+40");
        Row row = stored("t", negativeScale);
        assertThat(row.getString("t")).isEqualTo("12300000000000000000000000000000000000000");
        assertThat(row.getBigDecimal("t")).isEqualByComparingTo(negativeScale);
        assertThat(row.getBigDecimal("t").scale()).isZero();
        // a whole number in an INTEGER column is stored as INTEGER, and still exact
        Row integer = stored("i", new BigDecimal("9223372036854775807"));
        assertThat(integer.getString("type")).isEqualTo("integer");
        assertThat(integer.getBigDecimal("i")).isEqualTo(new BigDecimal("9223372036854775807"));
    }

    @Test
    void numbersTextAndBytesKeepTheirPlainPaths() {
        for (long in : new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE}) {
            assertThat(stored("x", in).getLong("x")).isEqualTo(in);
        }
        for (int in : new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE}) {
            Row row = stored("i", in);
            assertThat(row.getInt("i")).isEqualTo(in);
            assertThat(row.get("i", int.class)).isEqualTo(in);
        }
        for (double in : new double[] {Double.MIN_VALUE, -Double.MAX_VALUE, 0.1, 1e300,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThat(stored("r", in).getDouble("r")).isEqualTo(in);
        }
        assertThat(stored("x", (short) -7).getString("type")).isEqualTo("integer");
        assertThat(stored("x", (short) -7).getInt("x")).isEqualTo(-7);
        assertThat(stored("x", (byte) 5).getInt("x")).isEqualTo(5);
        assertThat(stored("x", 2.5f).getDouble("x")).isEqualTo(2.5);
        byte[] bytes = new byte[300];
        new Random(1).nextBytes(bytes);
        assertThat(stored("x", bytes).getBytes("x")).containsExactly(bytes);
        assertThat(stored("x", new byte[0]).getBytes("x")).isEmpty();
        assertThat(stored("t", "héllo ☃").getString("t")).isEqualTo("héllo ☃");
        assertThat(stored("t", "héllo").getBytes("t"))
                .containsExactly("héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void nullBindsAndReadsAsNullForEveryReferenceType() {
        Row row = stored("x", null);
        assertThat(row.getString("type")).isEqualTo("null");
        assertThat(Arrays.asList(row.getLong("x"), row.getInt("x"), row.getDouble("x"),
                row.getString("x"), row.getBoolean("x"), row.getBytes("x"), row.getBigDecimal("x"),
                row.getUuid("x"), row.getEnum("x", Color.class), row.getInstant("x"),
                row.getInstantFromEpochMillis("x"), row.getLocalDate("x"),
                row.getLocalDateTime("x"), row.getOffsetDateTime("x"), row.get("x", Long.class),
                row.get("x", Instant.class), row.get("x", Object.class))).containsOnlyNulls();
    }

    @Test
    void positionalGettersReadTheSameAsLabels() {
        db.execute("INSERT INTO v(x, t, i) VALUES (?, ?, ?)", Instant.EPOCH, Color.GREEN, 7);
        Row row = db.query("SELECT x, t, i FROM v").get(0);
        assertThat(row.getInstant(0)).isEqualTo(row.getInstant("x")).isEqualTo(Instant.EPOCH);
        assertThat(row.getEnum(1, Color.class)).isEqualTo(Color.GREEN);
        assertThat(row.getInt(2)).isEqualTo(7);
        assertThat(row.getLong(2)).isEqualTo(7L);
        assertThat(row.get(2, Integer.class)).isEqualTo(7);
        assertThat(row.getLocalDate(0)).isEqualTo(LocalDate.EPOCH);
        assertThat(row.getString(1)).isEqualTo("GREEN");
    }

    /** The span of instants the random sorting tests draw from: years 0000 to 9999. */
    static final class Temporal {
        static final long RANGE_START = -62167219200L;
        static final long RANGE_SECONDS = 253402300799L - RANGE_START;
    }
}

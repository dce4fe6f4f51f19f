package dev.lanes.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lanes.Row;
import dev.lanes.internal.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Properties of the encodings over many values: drawn at random (a fixed seed per test, named in
 * each failure, so a failure repeats) over the whole range SQLite's date functions cover, plus
 * the edges of that range. What Lanes binds reads back equal, compares as text in the order of
 * the values, and is what SQLite's own date functions read.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RoundTripPropertiesTest extends TypesFixture {
    static final long MIN_SECOND = -62167219200L;   // 0000-01-01T00:00:00Z
    static final long MAX_SECOND = 253402300799L;   // 9999-12-31T23:59:59Z
    static final int TRIES = 300;

    /** Random instants of SQLite's range, after its edges and the epoch's neighbours. */
    static List<Instant> instants(long seed) {
        Random random = new Random(seed);
        List<Instant> out = new ArrayList<>(List.of(Instant.ofEpochSecond(MIN_SECOND),
                Instant.ofEpochSecond(MIN_SECOND, 1), Instant.ofEpochSecond(MAX_SECOND, 999_999_999),
                Instant.ofEpochSecond(MAX_SECOND), Instant.EPOCH, Instant.ofEpochSecond(-1, 999_999_999),
                Instant.ofEpochSecond(0, 1)));
        while (out.size() < TRIES) {
            long second = MIN_SECOND + (long) (random.nextDouble() * (MAX_SECOND - MIN_SECOND + 1));
            int nano = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;   // whole milliseconds
                case 2 -> random.nextInt(1_000_000) * 1000;   // whole microseconds
                default -> random.nextInt(1_000_000_000);
            };
            out.add(Instant.ofEpochSecond(Math.min(second, MAX_SECOND), nano));
        }
        return out;
    }

    @Test
    void instantsReadBackEqualSortAsTextAndAreReadBySqlite() {
        long seed = 11;
        List<Instant> values = instants(seed);
        for (int i = 0; i < values.size(); i++) {
            Instant a = values.get(i);
            Instant b = values.get((i * 7 + 3) % values.size());
            Row row = db.query("SELECT ? AS a, ? < ? AS lt, ? = ? AS eq, unixepoch(?) AS s, "
                    + "strftime('%Y-%m-%d %H:%M:%f', ?) AS f", a, a, b, a, b, a, a).get(0);
            String at = "seed " + seed + ", " + a + " vs " + b;
            assertThat(row.getInstant("a")).as(at).isEqualTo(a);
            assertThat(row.getBoolean("lt")).as(at).isEqualTo(a.isBefore(b));
            assertThat(row.getBoolean("eq")).as(at).isEqualTo(a.equals(b));
            assertThat(row.getLong("s")).as(at).isEqualTo(a.getEpochSecond());
            assertThat(row.getInstant("f")).as(at).isCloseTo(a, within(1, ChronoUnit.MILLIS));
        }
    }

    @Test
    void localDateTimesAndDatesReadBackEqualAndSortAsText() {
        long seed = 12;
        List<Instant> values = instants(seed);
        for (int i = 0; i < values.size(); i++) {
            LocalDateTime a = LocalDateTime.ofInstant(values.get(i), ZoneOffset.UTC);
            LocalDateTime b = LocalDateTime.ofInstant(values.get((i * 5 + 1) % values.size()),
                    ZoneOffset.UTC);
            Row row = db.query("SELECT ? AS a, ? < ? AS lt, ? AS d, ? < ? AS dlt, date(?) AS sd",
                    a, a, b, a.toLocalDate(), a.toLocalDate(), b.toLocalDate(), a.toLocalDate())
                    .get(0);
            String at = "seed " + seed + ", " + a + " vs " + b;
            assertThat(row.getLocalDateTime("a")).as(at).isEqualTo(a);
            assertThat(row.getBoolean("lt")).as(at).isEqualTo(a.isBefore(b));
            assertThat(row.getLocalDate("d")).as(at).isEqualTo(a.toLocalDate());
            assertThat(row.getBoolean("dlt")).as(at)
                    .isEqualTo(a.toLocalDate().isBefore(b.toLocalDate()));
            assertThat(row.getLocalDate("sd")).as(at).isEqualTo(a.toLocalDate());
        }
    }

    @Test
    void offsetDateTimesKeepTheirOffsetAndSqliteReadsTheSameInstant() {
        long seed = 13;
        Random random = new Random(seed);
        int maxMinutes = 14 * 60 + 59; // the offsets SQLite reads
        List<Instant> values = instants(seed);
        for (int i = 0; i < values.size(); i++) {
            int minutes = i == 0 ? maxMinutes : i == 1 ? -maxMinutes
                    : random.nextInt(2 * maxMinutes + 1) - maxMinutes;
            OffsetDateTime t = values.get(i).atOffset(ZoneOffset.ofTotalSeconds(minutes * 60));
            if (t.getYear() < 0 || t.getYear() > 9999) {
                continue; // the written fields would leave SQLite's four-digit years
            }
            Row row = db.query("SELECT ? AS t, unixepoch(?) AS s", t, t).get(0);
            String at = "seed " + seed + ", " + t;
            assertThat(row.getOffsetDateTime("t")).as(at).isEqualTo(t);
            assertThat(row.getInstant("t")).as(at).isEqualTo(t.toInstant());
            assertThat(row.getLong("s")).as(at).isEqualTo(t.toEpochSecond());
            assertThat(row.getLocalDateTime("t")).as(at)
                    .isEqualTo(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
        }
    }

    @Test
    void textTheOtherWaysSqliteWritesItReadsAsSqliteReadsIt() {
        long seed = 14;
        Random random = new Random(seed);
        for (Instant instant : instants(seed)) {
            LocalDateTime t = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
            int digits = random.nextInt(10);
            String fraction = digits == 0 ? "" : "." + String.format("%09d", t.getNano())
                    .substring(0, digits);
            String text = String.format("%04d-%02d-%02d%s%02d:%02d:%02d%s%s", t.getYear(),
                    t.getMonthValue(), t.getDayOfMonth(), random.nextBoolean() ? "T" : " ",
                    t.getHour(), t.getMinute(), t.getSecond(), fraction,
                    random.nextBoolean() ? "Z" : "");
            Row row = db.query("SELECT ? AS ours, strftime('%Y-%m-%d %H:%M:%f', ?) AS sqlite",
                    text, text).get(0);
            String at = "seed " + seed + ", " + text;
            assertThat(row.getString("sqlite")).as(at).isNotNull();
            assertThat(row.getLocalDateTime("ours")).as(at)
                    .isCloseTo(row.getLocalDateTime("sqlite"), within(1, ChronoUnit.MILLIS));
        }
    }

    @Test
    void decimalsReadBackNumericallyEqualAndExactlyWhenTheirScaleIsNotNegative() {
        long seed = 15;
        Random random = new Random(seed);
        for (int i = 0; i < TRIES; i++) {
            BigDecimal d = new BigDecimal(new BigInteger(1 + random.nextInt(200), random)
                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)),
                    random.nextInt(101) - 40);
            BigDecimal back = db.query("SELECT ? AS d", d).get(0).getBigDecimal("d");
            assertThat(back).as("seed %d, %s", seed, d).isEqualByComparingTo(d);
            if (d.scale() >= 0) {
                assertThat(back).as("seed %d, %s", seed, d).isEqualTo(d);
            }
        }
    }

    @Test
    void uuidsReadBackFromTextAndBlob() {
        long seed = 16;
        Random random = new Random(seed);
        for (int i = 0; i < TRIES; i++) {
            UUID u = i == 0 ? new UUID(Long.MIN_VALUE, Long.MAX_VALUE)
                    : new UUID(random.nextLong(), random.nextLong());
            Row row = db.query("SELECT ? AS t, ? AS b", u, Values.uuidBytes(u)).get(0);
            assertThat(row.getUuid("t")).as("seed %d, %s", seed, u).isEqualTo(u);
            assertThat(row.getUuid("b")).as("seed %d, %s", seed, u).isEqualTo(u);
        }
    }

    @Test
    void finiteAndInfiniteDoublesAndAllLongsReadBackExactly() {
        long seed = 17;
        Random random = new Random(seed);
        for (int i = 0; i < TRIES; i++) {
            double d = i == 0 ? Double.MIN_VALUE : i == 1 ? Double.NEGATIVE_INFINITY
                    : Double.longBitsToDouble(random.nextLong());
            if (Double.isNaN(d)) {
                continue; // refused as a parameter; see ConversionErrorsTest
            }
            long l = i == 0 ? Long.MIN_VALUE : random.nextLong();
            Row row = db.query("SELECT ? AS d, ? AS l", d, l).get(0);
            assertThat(row.getDouble("d")).as("seed %d, %s", seed, d).isEqualTo(d);
            assertThat(row.getLong("l")).as("seed %d, %s", seed, l).isEqualTo(l);
        }
    }
}

package dev.lanes.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lanes.Row;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The date getters read what SQLite itself writes: {@code datetime()}, {@code strftime()}, {@code
 * CURRENT_TIMESTAMP} text, {@code unixepoch()} and {@code strftime('%s')} integers, {@code
 * julianday()} reals and {@code unixepoch('subsec')} reals; and they agree with SQLite on every
 * text form it reads.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SqliteWrittenDatesTest extends TypesFixture {

    @Test
    void whatSqliteWritesForNowReadsAsNow() {
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Row row = db.query("SELECT datetime('now') AS dt, CURRENT_TIMESTAMP AS ct, "
                + "strftime('%Y-%m-%d %H:%M:%f', 'now') AS f, unixepoch() AS ue, "
                + "strftime('%s', 'now') AS s, julianday('now') AS jd, "
                + "unixepoch('now', 'subsec') AS sub, typeof(julianday('now')) AS jdType, "
                + "typeof(unixepoch()) AS ueType, date('now') AS d").get(0);
        Instant after = Instant.now().plusMillis(1);
        assertThat(row.getString("jdType")).isEqualTo("real");
        assertThat(row.getString("ueType")).isEqualTo("integer");
        for (String column : List.of("dt", "ct", "f", "ue", "s", "jd", "sub")) {
            assertThat(row.getInstant(column)).as(column).isBetween(before, after);
            assertThat(row.getOffsetDateTime(column).getOffset()).isEqualTo(ZoneOffset.UTC);
        }
        assertThat(row.getLocalDate("d")).isBetween(LocalDate.ofInstant(before, ZoneOffset.UTC),
                LocalDate.ofInstant(after, ZoneOffset.UTC));
        assertThat(row.getLocalDate("ue")).isEqualTo(row.getLocalDate("dt"));
    }

    @Test
    void julianDaysAndUnixSecondsFromSqliteAreExact() {
        Instant t = Instant.parse("2024-05-06T07:08:09.123Z");
        Row row = db.query("SELECT julianday('2024-05-06 07:08:09.123') AS jd, "
                + "unixepoch('2024-05-06 07:08:09') AS ue, "
                + "unixepoch('2024-05-06 07:08:09.123', 'subsec') AS sub, "
                + "julianday('0000-01-01') AS first, julianday('9999-12-31 23:59:59.999') AS last, "
                + "julianday('1970-01-01') AS epoch, unixepoch('1969-12-31 23:59:59') AS minus1, "
                + "unixepoch('0001-01-01') AS year1").get(0);
        assertThat(row.getInstant("jd")).isEqualTo(t);
        assertThat(row.getInstant("ue")).isEqualTo(t.truncatedTo(ChronoUnit.SECONDS));
        assertThat(row.getInstant("sub")).isEqualTo(t);
        assertThat(row.getInstant("first")).isEqualTo(Instant.parse("0000-01-01T00:00:00Z"));
        assertThat(row.getInstant("last")).isEqualTo(Instant.parse("9999-12-31T23:59:59.999Z"));
        assertThat(row.getInstant("epoch")).isEqualTo(Instant.EPOCH);
        assertThat(row.getLong("minus1")).isEqualTo(-1L);
        assertThat(row.getInstant("minus1")).isEqualTo(Instant.parse("1969-12-31T23:59:59Z"));
        assertThat(row.getLocalDateTime("year1")).isEqualTo(LocalDateTime.parse("0001-01-01T00:00"));
        assertThat(row.getLocalDate("jd")).isEqualTo(LocalDate.parse("2024-05-06"));
        assertThat(row.getLocalDateTime("jd")).isEqualTo(LocalDateTime.parse("2024-05-06T07:08:09.123"));
    }

    @Test
    void valuesStoredInRealAndIntegerColumnsReadByTheirStorageClass() {
        // a REAL column turns unixepoch()'s integer into a REAL: the 'auto' rule still reads it
        db.execute("INSERT INTO v(r, i) VALUES (unixepoch('2024-05-06 07:08:09'), "
                + "unixepoch('1960-01-01'))");
        Row row = db.query("SELECT r, typeof(r) AS rt, i FROM v").get(0);
        assertThat(row.getString("rt")).isEqualTo("real");
        assertThat(row.getInstant("r")).isEqualTo(Instant.parse("2024-05-06T07:08:09Z"));
        assertThat(row.getInstant("i")).isEqualTo(Instant.parse("1960-01-01T00:00:00Z"));
        // a negative REAL is Unix seconds
        assertThat(select("-1.5").getInstant("v")).isEqualTo(Instant.parse("1969-12-31T23:59:58.500Z"));
    }

    @Test
    void everyTextFormSqliteReadsGivesTheInstantSqliteComputes() {
        List<String> forms = List.of("2024-05-06", "2024-05-06 07:08", "2024-05-06T07:08",
                "2024-05-06 07:08:09", "2024-05-06T07:08:09", "2024-05-06 07:08:09.1",
                "2024-05-06 07:08:09.12", "2024-05-06 07:08:09.123", "2024-05-06 07:08:09.123456",
                "2024-05-06 07:08:09.999999999999", "2024-05-06 07:08:09Z", "2024-05-06 07:08:09z",
                "2024-05-06 07:08:09.5+02:00", "2024-05-06T07:08-11:30", "2024-05-06 07:08:09 +02:00",
                "2024-05-06T00:00:00+14:00", "2024-05-06 12:00:00+14:59", "2024-05-06 12:00-14:59", "0000-01-01 00:00:00", "9999-12-31 23:59:59.999",
                "1969-12-31 23:59:59.999Z", "2024-05-06 07:08:09 ");
        for (String form : forms) {
            Row row = db.query("SELECT ? AS text, strftime('%Y-%m-%d %H:%M:%f', ?) AS sqlite",
                    form, form).get(0);
            assertThat(row.getString("sqlite")).as("SQLite reads %s", form).isNotNull();
            Instant ours = row.getInstant("text");
            Instant sqlites = row.getInstant("sqlite");
            // SQLite keeps milliseconds (and rounds); Lanes keeps nanoseconds
            assertThat(ours).as(form).isCloseTo(sqlites, within(1, ChronoUnit.MILLIS));
            assertThat(row.getLocalDateTime("text")).as(form)
                    .isCloseTo(row.getLocalDateTime("sqlite"), within(1, ChronoUnit.MILLIS));
        }
    }

    @Test
    void anOffsetIsKeptByOffsetDateTimeAndAppliedByTheOthers() {
        Row row = select("'2024-05-06T01:08:09.5+02:00'");
        assertThat(row.getOffsetDateTime("v"))
                .isEqualTo(OffsetDateTime.parse("2024-05-06T01:08:09.5+02:00"));
        assertThat(row.getInstant("v")).isEqualTo(Instant.parse("2024-05-05T23:08:09.5Z"));
        // as SQLite's datetime() and date() print it: the UTC wall time
        assertThat(row.getLocalDateTime("v")).isEqualTo(LocalDateTime.parse("2024-05-05T23:08:09.5"));
        assertThat(row.getLocalDate("v")).isEqualTo(LocalDate.parse("2024-05-05"));
        assertThat(select("date('2024-05-06T01:08:09.5+02:00')").getLocalDate("v"))
                .isEqualTo(row.getLocalDate("v"));
        // text without a zone is taken as written
        assertThat(select("'2024-05-06 01:08:09'").getLocalDateTime("v"))
                .isEqualTo(LocalDateTime.parse("2024-05-06T01:08:09"));
    }

    @Test
    void epochMillisAreReadOnlyWhenAskedFor() {
        long millis = Instant.parse("2024-05-06T07:08:09.123Z").toEpochMilli();
        Row row = stored("i", millis);
        assertThat(row.getInstantFromEpochMillis("i"))
                .isEqualTo(Instant.parse("2024-05-06T07:08:09.123Z"));
        assertThat(stored("i", -1L).getInstantFromEpochMillis("i"))
                .isEqualTo(Instant.parse("1969-12-31T23:59:59.999Z"));
        // what sqlite-jdbc's own setTimestamp binds for a java.sql.Timestamp: milliseconds (a
        // body's guarded statement stores text, so the driver's is reached through unwrap)
        db.write(c -> {
            try (var s = c.prepareStatement("INSERT INTO v(i) VALUES (?)")) {
                s.unwrap(org.sqlite.jdbc3.JDBC3PreparedStatement.class).setTimestamp(1,
                        java.sql.Timestamp.from(Instant.ofEpochMilli(millis)));
                return s.executeUpdate();
            }
        });
        assertThat(db.query("SELECT i FROM v ORDER BY id DESC LIMIT 1").get(0)
                .getInstantFromEpochMillis("i")).isEqualTo(Instant.ofEpochMilli(millis));
    }
}

package dev.lanes.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.ErrorCode;
import dev.lanes.InvalidRequestException;
import dev.lanes.MappingException;
import dev.lanes.Row;
import dev.lanes.Statement;
import dev.lanes.Transaction;
import dev.lanes.WriteOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Values that cannot convert, and parameters that have no faithful encoding, fail with a clear,
 * typed error that names the column (or parameter), the SQLite type and the target type; nothing
 * is written and the database goes on.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConversionErrorsTest extends TypesFixture {
    enum Color { RED, GREEN }

    /** Asserts a MappingException whose message holds every fragment. */
    static MappingException mappingFailure(ThrowingCallable call, String... fragments) {
        MappingException e = catchThrowableOfType(MappingException.class, call);
        assertThat(e).as("expected a MappingException").isNotNull();
        for (String fragment : fragments) {
            assertThat(e.getMessage()).contains(fragment);
        }
        return e;
    }

    @Test
    void aMappingFailureIsALanesExceptionThatWroteNothingAndIsNotRetryable() {
        MappingException e = mappingFailure(() -> select("'soon'").getInstant("v"));
        assertThat(e.code()).isEqualTo(ErrorCode.MAPPING_FAILED);
        assertThat(e.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("column 'v' holds TEXT 'soon', which is not an "
                + "Instant: the forms are YYYY-MM-DD[( |T)HH:MM[:SS[.SSS]]][Z|±HH:MM]");
    }

    @Test
    void badDateTextIsRefusedNamingColumnTypeAndTarget() {
        for (String text : List.of("yesterday", "2024-13-01", "2024-02-30", "2024-05-06 25:00",
                "2024-05-06 24:00:00", "2024-05-06 07:08:60", "24-05-06", "2024-05-06 07:08:09+0200",
                "2024-05-06X07:08", " 2024-05-06", "2024-05-06 07:08:09+25:00",
                "2024-05-06 07:08:09+15:00", "2024-05-06 07:08:09-14:60", "")) {
            db.execute("DELETE FROM v");
            db.execute("INSERT INTO v(t) VALUES (?)", text);
            Row row = db.query("SELECT t AS born FROM v").get(0);
            mappingFailure(() -> row.getLocalDate("born"), "column 'born'", "TEXT", "LocalDate");
            mappingFailure(() -> row.getInstant("born"), "column 'born'", "TEXT", "Instant");
            mappingFailure(() -> row.getLocalDateTime("born"), "LocalDateTime");
            mappingFailure(() -> row.getOffsetDateTime("born"), "OffsetDateTime");
        }
        mappingFailure(() -> select("'2024-02-30'").getLocalDate("v"), "no such date");
        // SQLite itself reads offsets only up to ±14:59
        assertThat(select("datetime('2024-05-06 07:08:09+15:00')").get("v")).isNull();
        mappingFailure(() -> select("'2024-05-06 07:08:09+15:00'").getInstant("v"), "±14:59");
    }

    @Test
    void nanIsRefusedAsAParameterBeforeSqliteRunsAndNothingIsWritten() {
        InvalidRequestException write = catchThrowableOfType(InvalidRequestException.class,
                () -> db.execute("INSERT INTO v(r) VALUES (?)", Double.NaN));
        assertThat(write).isNotNull();
        assertThat(write.getMessage()).contains("parameter 1").contains("NaN")
                .contains("NULL");
        assertThat(catchThrowableOfType(InvalidRequestException.class,
                () -> db.execute("INSERT INTO v(x, r) VALUES (?, ?)", 1, Float.NaN)).getMessage())
                .contains("parameter 2");
        InvalidRequestException read = catchThrowableOfType(InvalidRequestException.class,
                () -> db.query("SELECT ? AS v", Double.NaN));
        assertThat(read.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThatThrownBy(() -> db.executeBatch(List.of(Statement.of("INSERT INTO v(x) VALUES (1)"),
                Statement.of("INSERT INTO v(r) VALUES (?)", Double.NaN))))
                .hasStackTraceContaining("NaN");
        try (Transaction tx = db.begin()) {
            assertThatThrownBy(() -> tx.execute("INSERT INTO v(r) VALUES (?)", Double.NaN))
                    .isInstanceOf(InvalidRequestException.class);
            tx.execute("INSERT INTO v(r) VALUES (?)", 1.5); // the transaction goes on
            tx.commit();
        }
        assertThat(db.query("SELECT r FROM v")).extracting(r -> r.getDouble("r")).containsExactly(1.5);
    }

    @Test
    void aRealNanOrInfinityReadAsADateOrDecimalIsRefused() {
        // SQLite cannot store NaN, but a row may be built by hand
        Row nan = Row.of(List.of("at"), new Object[] {Double.NaN});
        mappingFailure(() -> nan.getInstant("at"), "column 'at'", "REAL NaN", "Instant",
                "not a finite number");
        mappingFailure(() -> nan.getLocalDate("at"), "LocalDate");
        mappingFailure(() -> nan.getBigDecimal("at"), "BigDecimal");
        mappingFailure(() -> nan.getLong("at"), "REAL NaN");
        Row infinite = select("1e999");
        mappingFailure(() -> infinite.getInstant("v"), "REAL Infinity", "Instant");
        mappingFailure(() -> infinite.getBigDecimal("v"), "REAL Infinity", "BigDecimal");
        mappingFailure(() -> select("'NaN'").getDouble("v"), "TEXT 'NaN'", "double");
    }

    @Test
    void anIntegerBeyondSecondsAndMillisecondsFailsInsteadOfAWrongDate() {
        long micros = Instant.parse("2024-05-06T07:08:09.123Z").toEpochMilli() * 1000;
        Row row = select("?", micros);
        mappingFailure(() -> row.getInstant("v"), "INTEGER " + micros, "Unix seconds",
                "epoch milliseconds");
        long millis = micros / 1000;
        assertThat(select("?", millis).getInstant("v")).isEqualTo(Instant.ofEpochMilli(millis));
        mappingFailure(() -> select("?", Long.MAX_VALUE).getInstantFromEpochMillis("v"),
                "0000 to 9999");
        mappingFailure(() -> select("julianday('0000-01-01') - 1").getInstant("v"),
                "Julian day", "0000 to 9999");
        mappingFailure(() -> select("x'00'").getInstant("v"), "BLOB of 1 bytes", "Instant");
    }

    @Test
    void datesOutsideWhatSqliteReadsAreRefusedAsParameters() {
        for (Object outside : List.of(Instant.MAX, Instant.parse("-0001-12-31T23:59:59Z"),
                Instant.parse("+10000-01-01T00:00:00Z"), LocalDate.of(10_000, 1, 1),
                LocalDate.of(-1, 1, 1), LocalDateTime.of(10_000, 1, 1, 0, 0),
                OffsetDateTime.of(LocalDateTime.of(9999, 12, 31, 23, 0), ZoneOffset.ofHours(-2)))) {
            InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                    () -> db.execute("INSERT INTO v(t) VALUES (?)", outside));
            assertThat(e).as("%s", outside).isNotNull();
            assertThat(e.getMessage()).contains("parameter 1").contains("0000 to 9999");
        }
        for (ZoneOffset unreadable : List.of(ZoneOffset.ofHoursMinutesSeconds(1, 2, 3),
                ZoneOffset.ofHours(15), ZoneOffset.ofHours(-18))) {
            assertThat(catchThrowableOfType(InvalidRequestException.class,
                    () -> db.execute("INSERT INTO v(t) VALUES (?)", OffsetDateTime.of(
                            LocalDateTime.of(2024, 1, 1, 0, 0), unreadable)))
                    .getMessage()).as("%s", unreadable).contains("offset SQLite cannot read");
        }
        assertThat(db.query("SELECT count(*) AS n FROM v").get(0).getLong("n")).isZero();
    }

    @Test
    void booleansAreOnlyZeroAndOne() {
        for (String literal : List.of("2", "-1", "'yes'", "'true'", "0.5", "x'01'")) {
            mappingFailure(() -> select(literal).getBoolean("v"), "column 'v'", "boolean",
                    "only 0 (false) and 1 (true)");
        }
        mappingFailure(() -> select("2").getBoolean("v"), "INTEGER 2");
        mappingFailure(() -> select("'yes'").getBoolean("v"), "TEXT 'yes'");
    }

    @Test
    void wholeNumbersMustBeExactAndInRange() {
        mappingFailure(() -> select("1.5").getLong("v"), "REAL 1.5", "whole number",
                "has a fraction");
        mappingFailure(() -> select("1e300").getLong("v"), "out of a long's range");
        mappingFailure(() -> select("'abc'").getLong("v"), "TEXT 'abc'", "not a number");
        mappingFailure(() -> select("x'0102'").getLong("v"), "BLOB of 2 bytes");
        mappingFailure(() -> select("2147483648").getInt("v"), "INTEGER 2147483648", "int",
                "out of an int's range");
        mappingFailure(() -> select("x'0102'").getDouble("v"), "BLOB", "double");
        mappingFailure(() -> select("1").getBytes("v"), "INTEGER 1", "byte[]");
        mappingFailure(() -> select("'1,5'").getBigDecimal("v"), "TEXT '1,5'", "BigDecimal");
        assertThat(select("2.0").getInt("v")).isEqualTo(2);
        assertThat(select("'1e3'").getLong("v")).isEqualTo(1000L);
        assertThat(select("'42'").getInt("v")).isEqualTo(42);
    }

    @Test
    void uuidsMustHaveTheCanonicalFormOrSixteenBytes() {
        mappingFailure(() -> select("x'00112233445566778899aabbccddee'").getUuid("v"),
                "BLOB of 15 bytes", "UUID", "16 bytes");
        // UUID.fromString would take this; Lanes does not guess
        mappingFailure(() -> select("'1-2-3-4-5'").getUuid("v"), "TEXT '1-2-3-4-5'", "UUID");
        mappingFailure(() -> select("'00112233445566778899aabbccddeeff'").getUuid("v"), "UUID");
        mappingFailure(() -> select("'0011223g-4455-6677-8899-aabbccddeeff'").getUuid("v"),
                "UUID");
        mappingFailure(() -> select("7").getUuid("v"), "INTEGER 7", "UUID");
    }

    @Test
    void enumsMustNameAConstantExactly() {
        mappingFailure(() -> select("'PURPLE'").getEnum("v", Color.class), "TEXT 'PURPLE'",
                "Color", "[RED, GREEN]");
        mappingFailure(() -> select("'red'").getEnum("v", Color.class), "TEXT 'red'");
        mappingFailure(() -> select("0").getEnum("v", Color.class), "INTEGER 0",
                "an enum is read from its name");
        mappingFailure(() -> select("'PURPLE'").get("v", Color.class), "Color");
    }

    @Test
    void primitiveTargetsRefuseNullAndUnknownTargetsAreRefusedAsArguments() {
        Row row = select("NULL");
        mappingFailure(() -> row.get("v", int.class), "column 'v' is NULL", "int", "Integer");
        mappingFailure(() -> row.get("v", long.class), "long");
        mappingFailure(() -> row.get("v", boolean.class), "boolean");
        mappingFailure(() -> row.get("v", double.class), "double");
        assertThat(row.get("v", Integer.class)).isNull();
        assertThatThrownBy(() -> row.get("v", List.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.util.List").hasMessageContaining("Instant");
        assertThatThrownBy(() -> row.getInstant("nope"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> row.getInstant(3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void longTextIsCutInTheMessage() {
        String longText = "x".repeat(500);
        MappingException e = mappingFailure(() -> select("?", longText).getInstant("v"));
        assertThat(e.getMessage()).hasSizeLessThan(200).contains("x".repeat(40) + "…");
        assertThat(e.getMessage()).doesNotContain("x".repeat(41));
        BigDecimal ok = select("'1.50'").getBigDecimal("v");
        assertThat(ok).isEqualTo(new BigDecimal("1.50"));
    }
}

package dev.lanes.dqlite.internal.wire;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;

/**
 * dqlite's ISO8601 values: text such as {@code 2024-05-01 12:30:00.25+02:00}.
 *
 * <p>The server stores an ISO8601 parameter as SQLite text and sends a value of a column declared
 * {@code DATETIME}, {@code DATE} or {@code TIMESTAMP} that holds text as ISO8601. This client
 * writes {@code yyyy-MM-dd HH:mm:ss}, the fraction of a second without trailing zeros (none when
 * whole) and the offset as {@code +HH:MM} (the layout go-dqlite writes, so both clients read each
 * other's values); a {@link LocalDateTime} has no offset and a {@link LocalDate} is the date
 * alone. It reads a date, optionally with {@code T} or a space and a time of minutes, seconds and
 * a fraction, optionally with {@code Z} or {@code ±HH:MM}; text without an offset is taken as UTC,
 * as go-dqlite does.
 */
public final class Iso8601 {
    private Iso8601() {}

    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .toFormatter();

    private static final DateTimeFormatter WITH_OFFSET = new DateTimeFormatterBuilder()
            .append(DATE_TIME)
            .appendOffset("+HH:MM", "+00:00")
            .toFormatter();

    private static final DateTimeFormatter LENIENT = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd")
            .optionalStart()
            .optionalStart().appendLiteral('T').optionalEnd()
            .optionalStart().appendLiteral(' ').optionalEnd()
            .appendPattern("HH:mm")
            .optionalStart()
            .appendLiteral(':')
            .appendPattern("ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd()
            .optionalEnd()
            .optionalEnd()
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .toFormatter();

    /** Whether {@link #format} takes this value. */
    static boolean canFormat(Object value) {
        return value instanceof Instant || value instanceof OffsetDateTime
                || value instanceof ZonedDateTime || value instanceof LocalDateTime
                || value instanceof LocalDate;
    }

    /** The text of an {@link Instant} (in UTC), offset, zoned or local date-time, or date. */
    static String format(Object value) {
        if (value instanceof Instant instant) {
            return WITH_OFFSET.format(instant.atOffset(ZoneOffset.UTC));
        } else if (value instanceof OffsetDateTime odt) {
            return WITH_OFFSET.format(odt);
        } else if (value instanceof ZonedDateTime zdt) {
            return WITH_OFFSET.format(zdt.toOffsetDateTime());
        } else if (value instanceof LocalDateTime ldt) {
            return DATE_TIME.format(ldt);
        } else if (value instanceof LocalDate date) {
            return DateTimeFormatter.ISO_LOCAL_DATE.format(date);
        }
        throw new IllegalArgumentException("not a date or time: " + value.getClass().getName());
    }

    /**
     * The value of an ISO8601 row value: {@code null} for the empty text (the server sends that
     * for NULL), an {@link OffsetDateTime} for text in one of the layouts above, and the text
     * itself otherwise (SQLite lets a DATETIME column hold any text; nothing is lost).
     */
    static Object parse(String text) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            TemporalAccessor parsed = LENIENT.parse(text);
            LocalDate date = LocalDate.from(parsed);
            LocalDateTime dateTime = parsed.isSupported(ChronoField.HOUR_OF_DAY)
                    ? LocalDateTime.of(date, java.time.LocalTime.from(parsed))
                    : date.atStartOfDay();
            ZoneOffset offset = parsed.isSupported(ChronoField.OFFSET_SECONDS)
                    ? ZoneOffset.from(parsed)
                    : ZoneOffset.UTC;
            return OffsetDateTime.of(dateTime, offset);
        } catch (DateTimeException e) {
            return text;
        }
    }
}

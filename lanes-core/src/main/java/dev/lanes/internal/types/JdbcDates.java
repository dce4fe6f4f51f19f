package dev.lanes.internal.types;

import dev.lanes.MappingException;
import java.sql.Date;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.regex.Pattern;

/**
 * How a JDBC result set reads a stored value as a date or time, by {@link ValueConvention}: the
 * one reading of the data source's result sets and of a body's, so that a value reads back the
 * same through both and through {@link dev.lanes.Row}. Text without a zone is a wall time in the
 * JVM's zone (or the {@code Calendar}'s) for {@code getTimestamp}, {@code getDate} and {@code
 * getTime}, as JDBC reads a timestamp without a zone; {@code getObject} to {@code Instant},
 * {@code OffsetDateTime}, {@code LocalDateTime} and {@code LocalDate} gives exactly what {@code
 * Row}'s getters give. NULL and blank text read as null, as the driver gives. Stateless.
 */
public final class JdbcDates {
    private static final Pattern TIME_OF_DAY =
            Pattern.compile("\\d{1,2}:\\d{2}(:\\d{2}(\\.\\d+)?)?");

    private JdbcDates() {}

    /** Whether {@code getObject(column, type)} is a date reading of this class. */
    public static boolean reads(Class<?> type) {
        return type == Timestamp.class || type == Date.class || type == Time.class
                || type == Instant.class || type == OffsetDateTime.class
                || type == LocalDateTime.class || type == LocalDate.class
                || type == LocalTime.class;
    }

    /** {@code getObject(column, type)} for a type {@link #reads} accepts. */
    public static <T> T object(Object stored, Class<T> type) throws SQLException {
        Object converted;
        if (type == Timestamp.class) {
            converted = timestamp(stored, null);
        } else if (type == Date.class) {
            converted = date(stored, null);
        } else if (type == Time.class) {
            converted = time(stored, null);
        } else if (type == LocalTime.class) {
            Time t = time(stored, null);
            converted = t == null ? null : t.toLocalTime();
        } else if (reads(type)) {
            converted = reading(stored, type);
        } else {
            throw new IllegalArgumentException("not a date type: " + type.getName());
        }
        return type.cast(converted);
    }

    /** {@code getTimestamp}, zone-less text in the calendar's zone (the JVM's for null). */
    public static Timestamp timestamp(Object stored, Calendar calendar) throws SQLException {
        Instant t = instant(stored, zone(calendar));
        return t == null ? null : Timestamp.from(t); // keeps nanoseconds
    }

    /** {@code getDate}, zone-less text in the calendar's zone (the JVM's for null). */
    public static Date date(Object stored, Calendar calendar) throws SQLException {
        Instant t = instant(stored, zone(calendar));
        return t == null ? null : new Date(t.toEpochMilli());
    }

    /** {@code getTime}: a time of day as it is, else the instant's, as {@link #timestamp}. */
    public static Time time(Object stored, Calendar calendar) throws SQLException {
        if (stored instanceof String && TIME_OF_DAY.matcher(((String) stored).strip()).matches()) {
            return Time.valueOf(LocalTime.parse(((String) stored).strip()).withNano(0));
        }
        Instant t = instant(stored, zone(calendar));
        return t == null ? null : new Time(t.toEpochMilli());
    }

    /** The zone a getter reads text without a zone in: the calendar's, else the JVM's. */
    private static ZoneId zone(Calendar calendar) {
        return calendar == null ? ZoneId.systemDefault() : calendar.getTimeZone().toZoneId();
    }

    /** The instant a date getter reads: text without a zone is a wall time in {@code zone}. */
    private static Instant instant(Object v, ZoneId wallZone) throws SQLException {
        Object stored = stripped(v);
        if (stored == null) {
            return null;
        }
        try {
            return ValueConvention.instant(stored, "?", wallZone);
        } catch (MappingException e) {
            throw unreadable(e);
        }
    }

    /** A {@code java.time} reading of {@link ValueConvention}. */
    private static <T> T reading(Object v, Class<T> type) throws SQLException {
        Object stored = stripped(v);
        if (stored == null) {
            return null;
        }
        try {
            return ValueConvention.reader(type).convert(stored, "?");
        } catch (MappingException e) {
            throw unreadable(e);
        }
    }

    /** The value a date reading starts from: text stripped; null for NULL and blank text. */
    private static Object stripped(Object v) {
        if (v instanceof String) {
            String text = ((String) v).strip();
            return text.isEmpty() ? null : text;
        }
        return v;
    }

    private static SQLException unreadable(MappingException e) {
        return new SQLDataException(e.getMessage(), "22007", e);
    }
}

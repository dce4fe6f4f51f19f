package dev.lanes.internal.types;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Lanes' value convention: the one rule set saying how a Java value is stored in SQLite and how
 * each stored value reads back, whichever API wrote or reads it. Every parameter Lanes binds
 * ({@code db.execute}/{@code query} arguments, {@code Statement} arguments of {@code
 * executeBatch}, a transaction's, the data source's {@code PreparedStatement} setters, and a
 * body's guarded {@code PreparedStatement} setters) goes through {@link #store}; every {@link dev.lanes.Row} getter, record component and the data
 * source's {@code ResultSet} date getters read through the methods here (the other types through
 * {@link Values}, which this class names). docs/reads.md has the same rules as one table.
 *
 * <p><b>Stored.</b> {@code String}, {@code Long}, {@code Integer}, {@code byte[]}: as they are;
 * {@code Short}, {@code Byte}: INTEGER; {@code Double}, {@code Float}: REAL (NaN refused);
 * {@code Boolean}: INTEGER 0/1; {@code BigDecimal}: TEXT, plain notation; {@code UUID}: TEXT,
 * canonical lower case; an enum: TEXT, its name; {@code Instant}, {@code java.util.Date}, {@code
 * java.sql.Timestamp}: TEXT {@code YYYY-MM-DD HH:MM:SS.SSSSSSSSSZ}, in UTC (a {@code Timestamp}
 * keeps its nanoseconds); {@code LocalDateTime}: the same without {@code Z}; {@code
 * OffsetDateTime}: the same with its offset; {@code LocalDate}, {@code java.sql.Date}: TEXT
 * {@code YYYY-MM-DD} (a {@code java.sql.Date} by its date in the JVM's zone, as JDBC defines
 * it); {@code java.sql.Time}: TEXT {@code HH:MM:SS}; {@code LocalTime}: TEXT {@code
 * HH:MM[:SS[.fraction]]}. Nothing Lanes binds stores a date as a number.
 *
 * <p><b>Read as a date.</b> By storage class, the same through every API:
 *
 * <ul>
 *   <li>TEXT with {@code Z} or an offset: that instant, everywhere.
 *   <li>TEXT without a zone (what {@code datetime()} and {@code CURRENT_TIMESTAMP} write, and a
 *       {@code LocalDateTime}): a wall time. The {@code java.time} readings take it as UTC, as
 *       SQLite does; JDBC's {@code getTimestamp}, {@code getDate} and {@code getTime} take it in
 *       the JVM's zone (or the {@code Calendar}'s), as JDBC reads a timestamp without a zone, so
 *       that {@code getTimestamp(c).toLocalDateTime()} gives the text back.
 *   <li>INTEGER (and TEXT of digits only): <b>Unix seconds</b> from {@value #MIN_SECONDS} to
 *       {@value #MAX_SECONDS} (the years 0000 to 9999), as {@code unixepoch()} writes; beyond
 *       that range only milliseconds name a date in those years, and the value is <b>epoch
 *       milliseconds</b>, as sqlite-jdbc's own {@code setTimestamp} and {@code setDate} write;
 *       beyond the millisecond range it fails. A millisecond value within the seconds range
 *       (1962-01-01 to 1978-01-11) cannot be told from seconds and is read as seconds; {@code
 *       Row.getInstantFromEpochMillis} reads it as milliseconds.
 *   <li>REAL: SQLite's {@code 'auto'} rule: from 0 to below 5373484.5 a Julian day number, as
 *       {@code julianday()} writes; otherwise Unix seconds with a fraction, as {@code
 *       unixepoch('subsec')} writes; to the millisecond.
 *   <li>BLOB: not a date.
 * </ul>
 *
 * An {@code OffsetDateTime} keeps the text's offset (UTC otherwise); a {@code LocalDateTime} or
 * {@code LocalDate} is the UTC wall time (zone-less text as written). Everything outside the
 * years 0000 to 9999 UTC, which SQLite's date functions cover, fails to store and to read.
 */
public final class ValueConvention {
    /** The Unix seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
    static final long MIN_SECONDS = Temporals.MIN_EPOCH_SECOND;
    static final long MAX_SECONDS = Temporals.MAX_EPOCH_SECOND;
    /** SQLite's 'auto' rule: a REAL below this (and not negative) is a Julian day number. */
    private static final double JULIAN_DAY_LIMIT = 5373484.5;
    /** The Julian day of 1970-01-01T00:00:00Z, in milliseconds, as SQLite computes with it. */
    private static final long UNIX_EPOCH_JULIAN_MS = 210866760000000L;

    private ValueConvention() {}

    /**
     * The value to hand to the driver's {@code setObject} for {@code value}; see <i>Stored</i>.
     *
     * @param position the parameter's one-based position, for the error message
     * @throws dev.lanes.InvalidRequestException when the value has no faithful encoding
     */
    public static Object store(Object value, int position) {
        return Parameters.encode(value, position);
    }

    /** The reading of a column as {@code type}, as {@link dev.lanes.Row#get(int, Class)} does. */
    public static <T> Converter<T> reader(Class<T> type) {
        return Converters.forType(type);
    }

    /** The instant a stored value stands for; zone-less text is UTC. */
    public static Instant instant(Object v, String column) {
        if (v == null || v instanceof Instant) {
            return (Instant) v;
        }
        return read(v, column, "Instant", ZoneOffset.UTC).toInstant();
    }

    /**
     * The instant a stored value stands for, zone-less text taken as a wall time in {@code
     * wallZone}: JDBC's reading of a timestamp without a zone.
     */
    public static Instant instant(Object v, String column, ZoneId wallZone) {
        return v == null ? null : read(v, column, "Timestamp", wallZone).toInstant();
    }

    /** An integer (by {@link Values#toLong}'s rules) as milliseconds since 1970-01-01T00:00Z. */
    public static Instant instantFromEpochMillis(Object v, String column) {
        if (v == null) {
            return null;
        }
        long ms = Values.toLong(v, column);
        if (!inMillisRange(ms)) {
            throw Values.cannot(v, column, "Instant", "as epoch milliseconds it is outside the "
                    + "years 0000 to 9999 that SQLite's date functions cover");
        }
        return Instant.ofEpochMilli(ms);
    }

    /** The value with its offset: the text's own, UTC otherwise. */
    public static OffsetDateTime offsetDateTime(Object v, String column) {
        if (v == null || v instanceof OffsetDateTime) {
            return (OffsetDateTime) v;
        }
        return read(v, column, "OffsetDateTime", ZoneOffset.UTC);
    }

    /** The UTC wall time of the value (zone-less text as written). */
    public static LocalDateTime localDateTime(Object v, String column) {
        if (v == null || v instanceof LocalDateTime) {
            return (LocalDateTime) v;
        }
        return utc(read(v, column, "LocalDateTime", ZoneOffset.UTC)).toLocalDateTime();
    }

    /** The UTC date of the value (zone-less text as written), as {@code date()} gives it. */
    public static LocalDate localDate(Object v, String column) {
        if (v == null || v instanceof LocalDate) {
            return (LocalDate) v;
        }
        return utc(read(v, column, "LocalDate", ZoneOffset.UTC)).toLocalDate();
    }

    private static OffsetDateTime utc(OffsetDateTime t) {
        return t.getOffset() == ZoneOffset.UTC ? t : t.withOffsetSameInstant(ZoneOffset.UTC);
    }

    /** A stored value as a date, by its storage class; see <i>Read as a date</i>. */
    private static OffsetDateTime read(Object v, String column, String target, ZoneId wallZone) {
        OffsetDateTime t;
        if (v instanceof String && !Temporals.wholeNumber((String) v)) {
            t = Temporals.parse((String) v, column, target, wallZone);
        } else if (v instanceof String || v instanceof Long || v instanceof Integer
                || v instanceof Short || v instanceof Byte) {
            t = fromInteger(Values.toLong(v, column), v, column, target);
        } else if (v instanceof Double || v instanceof Float) {
            t = fromReal(((Number) v).doubleValue(), v, column, target);
        } else {
            throw Values.cannot(v, column, target, "a date is TEXT, INTEGER or REAL");
        }
        long seconds = t.toEpochSecond();
        if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
            throw Values.cannot(v, column, target, "in UTC it is outside the years 0000 to 9999 "
                    + "that SQLite's date functions cover");
        }
        return t;
    }

    /** Unix seconds within the years 0000 to 9999, else epoch milliseconds within them. */
    private static OffsetDateTime fromInteger(long n, Object v, String column, String target) {
        if (n >= MIN_SECONDS && n <= MAX_SECONDS) {
            return OffsetDateTime.ofInstant(Instant.ofEpochSecond(n), ZoneOffset.UTC);
        }
        if (inMillisRange(n)) {
            return OffsetDateTime.ofInstant(Instant.ofEpochMilli(n), ZoneOffset.UTC);
        }
        throw Values.cannot(v, column, target, "a whole number is read as Unix seconds, or as "
                + "epoch milliseconds beyond the seconds of the years 0000 to 9999; this is "
                + "outside both, beyond what SQLite's date functions cover");
    }

    /** Whether epoch milliseconds {@code ms} fall within the years 0000 to 9999 (UTC). */
    private static boolean inMillisRange(long ms) {
        return ms >= MIN_SECONDS * 1000 && ms <= MAX_SECONDS * 1000 + 999;
    }

    /** SQLite's 'auto' rule: a Julian day number, or Unix seconds with a fraction. */
    private static OffsetDateTime fromReal(double d, Object v, String column, String target) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw Values.cannot(v, column, target, "it is not a finite number");
        }
        boolean julian = d >= 0 && d < JULIAN_DAY_LIMIT;
        long ms = julian ? Math.round(d * 86_400_000.0) - UNIX_EPOCH_JULIAN_MS
                : Math.round(d * 1000.0);
        if (!inMillisRange(ms)) {
            throw Values.cannot(v, column, target, (julian ? "read as a Julian day number"
                    : "read as Unix seconds") + " (SQLite's 'auto' rule for a REAL) it is "
                    + "outside the years 0000 to 9999 that SQLite's date functions cover");
        }
        return OffsetDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC);
    }
}

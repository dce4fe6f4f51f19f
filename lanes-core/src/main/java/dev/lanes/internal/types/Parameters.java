package dev.lanes.internal.types;

import dev.lanes.InvalidRequestException;
import dev.lanes.WriteOutcome;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.temporal.Temporal;
import java.util.UUID;

/**
 * The one encoding of each Java type Lanes binds as a statement parameter, so that reading it
 * back with the matching {@link dev.lanes.Row} getter returns what went in:
 *
 * <ul>
 *   <li>{@code String}, {@code Long}, {@code Integer}, {@code byte[]}, {@code null}: as they are
 *       (the fast path); {@code Short} and {@code Byte} as INTEGER (the driver would bind them as
 *       TEXT);
 *   <li>{@code Double}, {@code Float}: as REAL; NaN is refused, because SQLite stores it as NULL;
 *   <li>{@code Boolean}: INTEGER 1 or 0;
 *   <li>{@code BigDecimal}: TEXT, plain notation ({@link BigDecimal#toPlainString()}, no
 *       exponent);
 *   <li>{@code UUID}: TEXT, the canonical lower-case form;
 *   <li>an enum constant: TEXT, its {@link Enum#name()};
 *   <li>{@code Instant}, {@code LocalDateTime}, {@code OffsetDateTime}, {@code LocalDate}: TEXT
 *       in the forms of {@link Temporals}; outside the years 0000 to 9999 they are refused;
 *   <li>{@code Character} and any other {@code CharSequence}: TEXT, its characters;
 *   <li>{@code BigInteger}: TEXT, its decimal digits; {@code LocalTime}: TEXT {@code
 *       HH:MM:SS[.fraction]}, which SQLite's {@code time()} reads;
 *   <li>{@code java.util.Date} and {@code java.sql.Timestamp} (nanoseconds kept): TEXT, as an
 *       {@code Instant}; {@code java.sql.Date}: TEXT {@code YYYY-MM-DD}, its date in the JVM's
 *       zone; {@code java.sql.Time}: TEXT {@code HH:MM:SS}, its time of day in the JVM's zone
 *       (never the driver's epoch milliseconds, which a date reading would take for seconds);
 *   <li>anything else is refused: nothing is stored as its {@code toString()}.
 * </ul>
 *
 * Text must be valid UTF-16: a lone surrogate is refused, since SQLite would store it as
 * {@code ?}. A refused value fails the statement with {@link InvalidRequestException} before
 * SQLite ran it; its cause is a {@link Refusal} carrying the SQLState that the JDBC data source
 * reports. Every path that binds a value (the native API and JDBC) comes here through {@link
 * ValueConvention#store}, so this class alone decides how a value is stored.
 */
public final class Parameters {
    private Parameters() {}

    /**
     * The value to hand to {@code PreparedStatement.setObject} for {@code value}.
     *
     * @param position the parameter's one-based position, for the error message
     * @throws InvalidRequestException when the value has no faithful encoding
     */
    static Object encode(Object value, int position) {
        if (value instanceof String) {
            String text = (String) value;
            int bad = loneSurrogate(text);
            if (bad >= 0) {
                throw badText(position, text, bad);
            }
            return value;
        }
        if (value == null || value instanceof Long || value instanceof Integer
                || value instanceof byte[]) {
            return value;
        }
        if (value instanceof Double || value instanceof Float) {
            if (Double.isNaN(((Number) value).doubleValue())) {
                throw refused(position, value, "not a number, which SQLite would store as NULL; "
                        + "bind null, or a finite number");
            }
            return value;
        }
        if (value instanceof Boolean) {
            return (Boolean) value ? 1 : 0;
        }
        if (value instanceof Short || value instanceof Byte) {
            return ((Number) value).intValue();
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        if (value instanceof UUID || value instanceof Enum) {
            return value instanceof Enum ? ((Enum<?>) value).name() : value.toString();
        }
        if (value instanceof Temporal || value instanceof java.util.Date) {
            Object text = dateTime(value, position);
            if (text != null) {
                return text;
            }
        }
        if (value instanceof BigInteger) {
            return value.toString(); // decimal digits
        }
        if (value instanceof CharSequence || value instanceof Character) {
            return encode(value.toString(), position);
        }
        if (value == UNSET) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, "parameter " + position
                    + " was never set; set every parameter (setNull for NULL)",
                    new Refusal(Refusal.WRONG_COUNT));
        }
        throw new InvalidRequestException(WriteOutcome.NOT_STARTED, "parameter " + position
                + " is a " + value.getClass().getName() + ", which Lanes cannot store; "
                + SUPPORTED, new Refusal(Refusal.UNSUPPORTED_TYPE));
    }

    /**
     * The text of a date or time value ({@code Instant}, {@code LocalDateTime}, {@code LocalDate},
     * {@code OffsetDateTime}, {@code LocalTime}, {@code java.util.Date} and its {@code java.sql}
     * kinds), or null for another value.
     *
     * @throws InvalidRequestException when the value lies outside what SQLite's date functions
     *     read
     */
    private static Object dateTime(Object value, int position) {
        if (value instanceof Instant) {
            Instant t = (Instant) value;
            return Temporals.inRange(t) ? Temporals.format(t) : outOfRange(position, value);
        }
        if (value instanceof LocalDateTime) {
            LocalDateTime t = (LocalDateTime) value;
            return Temporals.inRange(t.toLocalDate()) ? Temporals.format(t)
                    : outOfRange(position, value);
        }
        if (value instanceof LocalDate) {
            LocalDate d = (LocalDate) value;
            return Temporals.inRange(d) ? Temporals.format(d) : outOfRange(position, value);
        }
        if (value instanceof OffsetDateTime) {
            OffsetDateTime t = (OffsetDateTime) value;
            int offset = t.getOffset().getTotalSeconds();
            if (offset % 60 != 0 || Math.abs(offset) > Temporals.MAX_OFFSET_SECONDS) {
                throw refused(position, value, "at an offset SQLite cannot read (it reads "
                        + "±HH:MM up to ±14:59, without seconds)");
            }
            return Temporals.inRange(t.toLocalDate()) && Temporals.inRange(t.toInstant())
                    ? Temporals.format(t) : outOfRange(position, value);
        }
        if (value instanceof java.util.Date) {
            return date((java.util.Date) value, position);
        }
        if (value instanceof LocalTime) {
            return value.toString(); // ISO HH:MM:SS[.fraction], as time() reads
        }
        return null; // another kind of Temporal, which Lanes does not store
    }

    /**
     * Refuses {@code given} arguments for a statement of {@code expected} parameters: too many
     * would fail in the driver, too few would bind NULL to the rest.
     */
    public static void checkCount(int expected, int given) {
        if (expected != given) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, "the statement has "
                    + expected + (expected == 1 ? " parameter" : " parameters") + " but "
                    + given + (given == 1 ? " argument was" : " arguments were")
                    + " given; pass one argument per parameter (null for NULL)",
                    new Refusal(Refusal.WRONG_COUNT));
        }
    }

    /** The index of the first lone surrogate of {@code text}, or -1 when it is valid UTF-16. */
    static int loneSurrogate(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE) {
                if (Character.isHighSurrogate(c) && i + 1 < n
                        && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return -1;
    }

    private static InvalidRequestException badText(int position, String text, int at) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, "parameter " + position
                + " is a String that is not valid UTF-16: a lone surrogate (\\u"
                + String.format("%04X", (int) text.charAt(at)) + ") at index " + at + " of "
                + text.length() + " characters, which SQLite would store as '?'; was it cut "
                + "inside a surrogate pair? Pass whole characters", new Refusal(Refusal.INVALID_TEXT));
    }

    /** The types {@link #encode} takes, for the message that refuses another. */
    private static final String SUPPORTED = "the supported types are String, Long, Integer, "
            + "Short, Byte, Double, Float, Boolean, BigDecimal, byte[], UUID, an enum, Instant, "
            + "LocalDateTime, OffsetDateTime, LocalDate, LocalTime, BigInteger, java.util.Date "
            + "(and java.sql.Date, Time, Timestamp), Character and other CharSequences, and "
            + "null";

    /**
     * The placeholder for a parameter that was never set (a JDBC statement's gap): refused,
     * where a {@code null} binds NULL.
     */
    public static final Object UNSET = new Object() {
        @Override
        public String toString() {
            return "(unset)";
        }
    };

    /**
     * The cause of a refused parameter, carrying the SQLState the JDBC data source reports:
     * {@code 07001} for a wrong count or an unset parameter, {@code 07006} for a type Lanes
     * cannot store, {@code 22021} for text that is not valid UTF-16.
     */
    public static final class Refusal extends SQLException {
        private static final long serialVersionUID = 1L;
        static final String WRONG_COUNT = "07001";
        static final String UNSUPPORTED_TYPE = "07006";
        static final String INVALID_TEXT = "22021";

        Refusal(String state) {
            super("the parameter was refused", state);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // the InvalidRequestException it causes has the stack
        }
    }

    /** The JDBC date types, each as the {@code java.time} type it stands for. */
    private static String date(java.util.Date value, int position) {
        if (value instanceof java.sql.Date) {
            LocalDate d = ((java.sql.Date) value).toLocalDate();
            return Temporals.inRange(d) ? Temporals.format(d) : outOfRange(position, value);
        }
        if (value instanceof java.sql.Time) {
            return Temporals.format(((java.sql.Time) value).toLocalTime());
        }
        Instant t = value.toInstant(); // a Timestamp's keeps its nanoseconds
        return Temporals.inRange(t) ? Temporals.format(t) : outOfRange(position, value);
    }

    private static String outOfRange(int position, Object value) {
        throw refused(position, value, "outside the years 0000 to 9999 that SQLite's date "
                + "functions cover");
    }

    private static InvalidRequestException refused(int position, Object value, String why) {
        return new InvalidRequestException(WriteOutcome.NOT_STARTED, "parameter " + position
                + " (" + value.getClass().getSimpleName() + " " + value + ") is " + why, null);
    }
}

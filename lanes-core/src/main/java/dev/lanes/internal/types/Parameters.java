package dev.lanes.internal.types;

import dev.lanes.InvalidRequestException;
import dev.lanes.WriteOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
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
 *   <li>anything else: handed to the driver's {@code setObject} unchanged, as before.
 * </ul>
 *
 * A refused value fails the statement with {@link InvalidRequestException} before SQLite ran it.
 */
public final class Parameters {
    private Parameters() {}

    /**
     * The value to hand to {@code PreparedStatement.setObject} for {@code value}.
     *
     * @param position the parameter's one-based position, for the error message
     * @throws InvalidRequestException when the value has no faithful encoding
     */
    public static Object encode(Object value, int position) {
        if (value == null || value instanceof String || value instanceof Long
                || value instanceof Integer || value instanceof byte[]) {
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
        return value;
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

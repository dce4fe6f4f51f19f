package dev.lanes.internal.types;

import dev.lanes.MappingException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * The rules that turn one SQLite value, as the driver hands it over ({@code Long}, {@code
 * Double}, {@code String}, {@code byte[]} or {@code null}), into a Java type. Every typed getter of
 * {@link dev.lanes.Row}, every record component and {@link Converters} use these, so one value
 * converts the same way wherever it is read. {@code null} stays {@code null}; a value that does
 * not convert exactly fails with a {@link MappingException} naming the column, the value's SQLite
 * type and the target. Dates are in {@link Temporals}.
 */
public final class Values {
    /** The most characters of a TEXT value an error message shows. */
    private static final int SHOWN_TEXT = 40;
    private static final double TWO_TO_63 = 0x1p63;

    private Values() {}

    /** The SQLite storage class a driver value comes from; other Java types by their name. */
    public static String sqliteType(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return "INTEGER";
        }
        if (v instanceof Double || v instanceof Float) {
            return "REAL";
        }
        if (v instanceof String) {
            return "TEXT";
        }
        if (v instanceof byte[]) {
            return "BLOB";
        }
        return v.getClass().getSimpleName();
    }

    /**
     * The error for {@code value} of {@code column} that does not convert to {@code target}:
     * {@code column 'born' holds TEXT '1990-13-01', which is not a LocalDate: <reason>}.
     */
    public static MappingException cannot(Object value, String column, String target,
            String reason) {
        return new MappingException("column '" + column + "' holds " + describe(value)
                + ", which is not " + article(target) + target
                + (reason == null ? "" : ": " + reason));
    }

    /** The error for a NULL read into a primitive. */
    static MappingException nullPrimitive(String column, Class<?> primitive) {
        return new MappingException("column '" + column + "' is NULL, which " + article(
                primitive.getName()) + primitive.getName() + " cannot hold; use "
                + Converters.boxed(primitive).getSimpleName() + " to get null");
    }

    /** The SQLite type and, for numbers and text, the value (text cut at 40 characters). */
    static String describe(Object v) {
        String type = sqliteType(v);
        if (v == null) {
            return type;
        }
        if (v instanceof byte[]) {
            return type + " of " + ((byte[]) v).length + " bytes";
        }
        if (v instanceof String) {
            String s = (String) v;
            return type + " '" + (s.length() > SHOWN_TEXT ? s.substring(0, SHOWN_TEXT) + "…" : s)
                    + "'";
        }
        return type + " " + v;
    }

    private static String article(String noun) {
        return "aeiouAEIOU".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ";
    }

    /**
     * A whole number: an INTEGER; a REAL with no fraction within a long's range; a TEXT holding
     * an integer literal, or a decimal one with no fraction ({@code "3.0"}, {@code "1e3"}).
     */
    public static Long toLong(Object v, String column) {
        if (v == null || v instanceof Long) {
            return (Long) v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (d != Math.rint(d) || d < -TWO_TO_63 || d >= TWO_TO_63) {
                throw cannot(v, column, "whole number", d != Math.rint(d)
                        ? "it has a fraction" : "it is out of a long's range");
            }
            return (long) d;
        }
        if (v instanceof String) {
            String s = (String) v;
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException notPlain) {
                try {
                    return new BigDecimal(s).longValueExact();
                } catch (NumberFormatException | ArithmeticException e) {
                    throw cannot(v, column, "whole number", e instanceof ArithmeticException
                            ? "it has a fraction or is out of a long's range"
                            : "it is not a number");
                }
            }
        }
        throw cannot(v, column, "whole number", null);
    }

    /** {@link #toLong} within an int's range. */
    public static Integer toInt(Object v, String column) {
        if (v == null || v instanceof Integer) {
            return (Integer) v;
        }
        long l = toLong(v, column);
        if (l != (int) l) {
            throw cannot(v, column, "int", "it is out of an int's range");
        }
        return (int) l;
    }

    /** A REAL, an INTEGER widened, or a TEXT number literal; never NaN. */
    public static Double toDouble(Object v, String column) {
        if (v == null || v instanceof Double) {
            return (Double) v;
        }
        if (v instanceof Number && !(v instanceof BigDecimal)) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof String) {
            try {
                double d = Double.parseDouble((String) v);
                if (!Double.isNaN(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // falls through to the error
            }
            throw cannot(v, column, "double", "it is not a number");
        }
        throw cannot(v, column, "double", null);
    }

    /** TEXT as is; a BLOB decoded as UTF-8; a number in Java's notation. */
    public static String toText(Object v, String column) {
        if (v == null || v instanceof String) {
            return (String) v;
        }
        if (v instanceof byte[]) {
            return new String((byte[]) v, StandardCharsets.UTF_8);
        }
        return v.toString();
    }

    /** 0 is false and 1 is true, as SQLite's FALSE and TRUE are; by {@link #toLong}'s rules. */
    public static Boolean toBoolean(Object v, String column) {
        if (v == null || v instanceof Boolean) {
            return (Boolean) v;
        }
        Long l;
        try {
            l = toLong(v, column);
        } catch (MappingException e) {
            throw cannot(v, column, "boolean", "only 0 (false) and 1 (true) are");
        }
        if (l == 0) {
            return Boolean.FALSE;
        }
        if (l == 1) {
            return Boolean.TRUE;
        }
        throw cannot(v, column, "boolean", "only 0 (false) and 1 (true) are");
    }

    /** A copy of a BLOB, or a TEXT's UTF-8 bytes; numbers are refused. */
    public static byte[] toBytes(Object v, String column) {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[]) {
            return ((byte[]) v).clone();
        }
        if (v instanceof String) {
            return ((String) v).getBytes(StandardCharsets.UTF_8);
        }
        throw cannot(v, column, "byte[]", null);
    }

    /**
     * Exact from an INTEGER or a TEXT decimal literal ({@code "12.50"} keeps its scale); a REAL
     * through its shortest decimal form, so only as exact as a double.
     */
    public static BigDecimal toBigDecimal(Object v, String column) {
        if (v == null || v instanceof BigDecimal) {
            return (BigDecimal) v;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw cannot(v, column, "BigDecimal", "it is not finite");
            }
            return BigDecimal.valueOf(d);
        }
        if (v instanceof String) {
            try {
                return new BigDecimal((String) v);
            } catch (NumberFormatException e) {
                throw cannot(v, column, "BigDecimal", "it is not a decimal number");
            }
        }
        throw cannot(v, column, "BigDecimal", null);
    }

    /**
     * A TEXT in the canonical 36-character form (hex digits of either case), or a BLOB of 16
     * bytes, most significant first.
     */
    public static UUID toUuid(Object v, String column) {
        if (v == null || v instanceof UUID) {
            return (UUID) v;
        }
        if (v instanceof byte[]) {
            byte[] b = (byte[]) v;
            if (b.length != 16) {
                throw cannot(v, column, "UUID", "a UUID BLOB has 16 bytes");
            }
            return new UUID(longAt(b, 0), longAt(b, 8));
        }
        if (v instanceof String) {
            String s = (String) v;
            if (!canonicalUuid(s)) {
                throw cannot(v, column, "UUID",
                        "a UUID TEXT has the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
            }
            return UUID.fromString(s);
        }
        throw cannot(v, column, "UUID", null);
    }

    /** The 16 bytes of a UUID, most significant first: the inverse of the BLOB reading. */
    public static byte[] uuidBytes(UUID u) {
        byte[] b = new byte[16];
        long msb = u.getMostSignificantBits();
        long lsb = u.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (msb >>> (56 - 8 * i));
            b[8 + i] = (byte) (lsb >>> (56 - 8 * i));
        }
        return b;
    }

    private static long longAt(byte[] b, int from) {
        long l = 0;
        for (int i = from; i < from + 8; i++) {
            l = (l << 8) | (b[i] & 0xff);
        }
        return l;
    }

    private static boolean canonicalUuid(String s) {
        if (s.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? c == '-'
                    : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A TEXT holding one of the enum's constant names, exactly (case matters). */
    public static <E extends Enum<E>> E toEnum(Object v, Class<E> type, String column) {
        if (v == null || type.isInstance(v)) {
            return type.cast(v);
        }
        if (v instanceof String) {
            try {
                return Enum.valueOf(type, (String) v);
            } catch (IllegalArgumentException e) {
                throw cannot(v, column, type.getSimpleName(), "its names are "
                        + names(type.getEnumConstants()));
            }
        }
        throw cannot(v, column, type.getSimpleName(), "an enum is read from its name, as TEXT");
    }

    private static String names(Enum<?>[] constants) {
        int shown = Math.min(constants.length, 12);
        String[] names = new String[shown];
        for (int i = 0; i < shown; i++) {
            names[i] = constants[i].name();
        }
        String list = Arrays.toString(names);
        return shown < constants.length
                ? list.substring(0, list.length() - 1) + ", … (" + constants.length + " in all)]"
                : list;
    }
}

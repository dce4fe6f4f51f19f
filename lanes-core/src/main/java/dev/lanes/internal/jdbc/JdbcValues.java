package dev.lanes.internal.jdbc;

import dev.lanes.internal.types.JdbcDates;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * The conversions a JDBC result set applies to a value read off SQLite ({@code Long}, {@code
 * Double}, {@code String}, {@code byte[]} or null), following sqlite-jdbc's result set with its
 * default configuration, so that code written against the driver reads the same values:
 *
 * <ul>
 *   <li>numbers from text take SQLite's numeric prefix ({@code ' 12abc'} is 12, {@code 'abc'}
 *       is 0); a real read as an integer is truncated; NULL reads as 0 (and {@code wasNull});
 *   <li>a boolean is an integer that is not 0;
 *   <li>dates and times are read by Lanes' value convention ({@link JdbcDates}, which a body's
 *       result sets read by too), not the driver's (which reads every INTEGER as epoch
 *       milliseconds and every REAL as a Julian day);
 *   <li>{@code getObject} gives an {@code Integer} for an integer in {@code int}'s range, else a
 *       {@code Long}, as the driver does.
 * </ul>
 * Stateless.
 */
final class JdbcValues {
    private JdbcValues() {}

    static String string(Object v) {
        if (v == null || v instanceof String) {
            return (String) v;
        }
        if (v instanceof byte[]) {
            return new String((byte[]) v, StandardCharsets.UTF_8);
        }
        if (v instanceof Double) {
            return realText((Double) v);
        }
        return v.toString();
    }

    /** A real as SQLite prints one: shortest round trip, with {@code .0} for a whole number. */
    private static String realText(double d) {
        String s = Double.toString(d);
        return s.endsWith(".0") || s.contains("E") || s.contains(".") ? s : s + ".0";
    }

    static long longValue(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Long) {
            return (Long) v;
        }
        if (v instanceof Double) {
            return (long) (double) (Double) v;
        }
        return integerPrefix(string(v));
    }

    /** SQLite's text-to-integer rule: the leading integer digits (no fraction, no exponent). */
    private static long integerPrefix(String text) {
        String s = text.strip();
        int i = 0;
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        long value = 0;
        for (; i < s.length() && Character.isDigit(s.charAt(i)); i++) {
            int digit = s.charAt(i) - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return negative ? Long.MIN_VALUE : Long.MAX_VALUE; // saturates, as SQLite does
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    static double doubleValue(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Long) {
            return (Long) v;
        }
        if (v instanceof Double) {
            return (Double) v;
        }
        return numericPrefix(string(v));
    }

    /** SQLite's text-to-number rule: the longest leading number, else 0. */
    private static double numericPrefix(String text) {
        String s = text.strip();
        int end = 0;
        int n = s.length();
        if (end < n && (s.charAt(end) == '+' || s.charAt(end) == '-')) {
            end++;
        }
        int digitsStart = end;
        while (end < n && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.')) {
            end++;
        }
        if (end < n && end > digitsStart && (s.charAt(end) == 'e' || s.charAt(end) == 'E')) {
            int exp = end + 1;
            if (exp < n && (s.charAt(exp) == '+' || s.charAt(exp) == '-')) {
                exp++;
            }
            int expDigits = exp;
            while (exp < n && Character.isDigit(s.charAt(exp))) {
                exp++;
            }
            if (exp > expDigits) {
                end = exp;
            }
        }
        for (int cut = end; cut > digitsStart; cut--) {
            try {
                return Double.parseDouble(s.substring(0, cut));
            } catch (NumberFormatException e) {
                // a trailing dot or sign: try one character less
            }
        }
        return 0;
    }

    static BigDecimal bigDecimal(Object v) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof Long) {
            return BigDecimal.valueOf((Long) v);
        }
        if (v instanceof Double) {
            return BigDecimal.valueOf((Double) v);
        }
        try {
            return new BigDecimal(string(v).strip());
        } catch (NumberFormatException e) {
            throw new SQLException("Bad value for type BigDecimal : " + string(v), e);
        }
    }

    static byte[] bytes(Object v) {
        if (v == null || v instanceof byte[]) {
            return (byte[]) v;
        }
        return string(v).getBytes(StandardCharsets.UTF_8);
    }

    static Object object(Object v) {
        if (v instanceof Long) {
            long l = (Long) v;
            return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? Integer.valueOf((int) l) : v;
        }
        return v;
    }

    /** {@code getObject(column, type)} for the types sqlite-jdbc converts to. */
    static <T> T as(Object v, Class<T> type) throws SQLException {
        Object converted;
        if (type == String.class) {
            converted = string(v);
        } else if (type == Long.class) {
            converted = longValue(numeric(v, type));
        } else if (type == Integer.class) {
            converted = (int) longValue(numeric(v, type));
        } else if (type == Short.class) {
            converted = (short) longValue(numeric(v, type));
        } else if (type == Double.class) {
            converted = doubleValue(numeric(v, type));
        } else if (type == Float.class) {
            converted = (float) doubleValue(numeric(v, type));
        } else if (type == Boolean.class) {
            converted = v == null ? null : longValue(v) != 0;
        } else if (type == BigDecimal.class) {
            converted = bigDecimal(v);
        } else if (type == byte[].class) {
            converted = bytes(v);
        } else if (JdbcDates.reads(type)) {
            converted = JdbcDates.object(v, type);
        } else if (type == Object.class) {
            converted = object(v);
        } else {
            throw new java.sql.SQLFeatureNotSupportedException("getObject(column, "
                    + type.getName() + ") is not supported; supported are String, the boxed "
                    + "numbers, Boolean, BigDecimal, byte[] and the java.sql and java.time "
                    + "date types");
        }
        return type.cast(converted);
    }

    /** As the driver: a number is asked of an INTEGER or REAL value only, NULL included. */
    private static Object numeric(Object v, Class<?> type) throws SQLException {
        if (v instanceof Long || v instanceof Double) {
            return v;
        }
        throw new SQLException("Bad value for type " + type.getSimpleName());
    }
}

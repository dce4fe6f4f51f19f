package dev.lanes.internal.types;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Dates and times in SQLite's own forms, read and written.
 *
 * <p><b>Reading.</b> A value is read as SQLite's date and time functions read it, within the
 * range they are documented for (0000-01-01 00:00:00 to 9999-12-31 23:59:59.999999999 UTC;
 * anything else fails):
 *
 * <ul>
 *   <li>TEXT: {@code YYYY-MM-DD}, optionally followed by {@code T} or a space and {@code HH:MM},
 *       {@code HH:MM:SS} or {@code HH:MM:SS.S…} (up to nine fraction digits are kept), then
 *       optionally {@code Z} or an offset {@code ±HH:MM} (up to ±14:59, as SQLite reads). Text
 *       without a zone is UTC, as what
 *       {@code datetime()} and {@code CURRENT_TIMESTAMP} write is. Stricter than SQLite in one
 *       way: a day that does not exist ({@code 2024-02-31}) is refused, not rolled over.
 *   <li>INTEGER, and TEXT of digits only: Unix seconds, as {@code unixepoch()} and {@code
 *       strftime('%s')} write (milliseconds only through {@link #toInstantFromEpochMillis}).
 *   <li>REAL: by SQLite's {@code 'auto'} rule: from 0 to below 5373484.5 a Julian day number, as
 *       {@code julianday()} writes; otherwise Unix seconds with a fraction, as {@code
 *       unixepoch('subsec')} writes. Both to the millisecond, rounded as SQLite rounds.
 * </ul>
 *
 * Every target derives from the instant so read: an {@code OffsetDateTime} keeps the text's
 * offset (UTC otherwise), a {@code LocalDateTime} or {@code LocalDate} is the UTC wall time, as
 * {@code datetime()} and {@code date()} would print it (text without a zone is taken as written).
 *
 * <p><b>Writing.</b> One fixed-width form per type, so that values of one type sort as text in
 * time order, also beside what {@code datetime()} and {@code CURRENT_TIMESTAMP} write ({@code
 * YYYY-MM-DD HH:MM:SS}, the same separator); SQLite's date functions read all of them:
 * {@code Instant} {@code 2024-05-06 07:08:09.123456789Z}, {@code LocalDateTime} the same without
 * {@code Z}, {@code OffsetDateTime} the same with its offset ({@code +02:00}, {@code Z} for UTC),
 * {@code LocalDate} {@code 2024-05-06}.
 */
public final class Temporals {
    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z as Unix seconds: SQLite's date range. */
    static final long MIN_EPOCH_SECOND = -62167219200L;
    static final long MAX_EPOCH_SECOND = 253402300799L;
    /** The largest offset SQLite reads: ±14:59. */
    static final int MAX_OFFSET_SECONDS = 14 * 3600 + 59 * 60;
    /** SQLite's 'auto' rule: a REAL below this (and not negative) is a Julian day number. */
    private static final double JULIAN_DAY_LIMIT = 5373484.5;
    /** The Julian day of 1970-01-01T00:00:00Z, in milliseconds, as SQLite computes with it. */
    private static final long UNIX_EPOCH_JULIAN_MS = 210866760000000L;
    private static final String TEXT_FORM = "the forms are YYYY-MM-DD[( |T)HH:MM[:SS[.SSS]]]"
            + "[Z|±HH:MM]";

    private Temporals() {}

    /** The instant a value stands for; see the class comment. */
    public static Instant toInstant(Object v, String column) {
        if (v == null || v instanceof Instant) {
            return (Instant) v;
        }
        return read(v, column, "Instant").toInstant();
    }

    /** An integer (by {@link Values#toLong}'s rules) as milliseconds since 1970-01-01T00:00Z. */
    public static Instant toInstantFromEpochMillis(Object v, String column) {
        if (v == null) {
            return null;
        }
        long ms = Values.toLong(v, column);
        if (ms < MIN_EPOCH_SECOND * 1000 || ms > MAX_EPOCH_SECOND * 1000 + 999) {
            throw Values.cannot(v, column, "Instant", "as epoch milliseconds it is outside the "
                    + "years 0000 to 9999 that SQLite's date functions cover");
        }
        return Instant.ofEpochMilli(ms);
    }

    /** The value with its offset: the text's own, UTC otherwise. */
    public static OffsetDateTime toOffsetDateTime(Object v, String column) {
        if (v == null || v instanceof OffsetDateTime) {
            return (OffsetDateTime) v;
        }
        return read(v, column, "OffsetDateTime");
    }

    /** The UTC wall time of the value (zone-less text as written). */
    public static LocalDateTime toLocalDateTime(Object v, String column) {
        if (v == null || v instanceof LocalDateTime) {
            return (LocalDateTime) v;
        }
        return utc(read(v, column, "LocalDateTime")).toLocalDateTime();
    }

    /** The UTC date of the value (zone-less text as written), as {@code date()} gives it. */
    public static LocalDate toLocalDate(Object v, String column) {
        if (v == null || v instanceof LocalDate) {
            return (LocalDate) v;
        }
        return utc(read(v, column, "LocalDate")).toLocalDate();
    }

    private static OffsetDateTime utc(OffsetDateTime t) {
        return t.getOffset() == ZoneOffset.UTC ? t : t.withOffsetSameInstant(ZoneOffset.UTC);
    }

    private static OffsetDateTime read(Object v, String column, String target) {
        OffsetDateTime t;
        if (v instanceof String && !wholeNumber((String) v)) {
            t = parse((String) v, column, target);
        } else if (v instanceof String || v instanceof Long || v instanceof Integer
                || v instanceof Short || v instanceof Byte) {
            long seconds = Values.toLong(v, column);
            if (seconds < MIN_EPOCH_SECOND || seconds > MAX_EPOCH_SECOND) {
                throw Values.cannot(v, column, target, "a whole number is read as Unix seconds, and "
                        + "this is outside the years 0000 to 9999 that SQLite's date functions "
                        + "cover; if it holds milliseconds, read it with "
                        + "getInstantFromEpochMillis");
            }
            return OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds), ZoneOffset.UTC);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw Values.cannot(v, column, target, "it is not a finite number");
            }
            boolean julian = d >= 0 && d < JULIAN_DAY_LIMIT;
            long ms = julian ? Math.round(d * 86_400_000.0) - UNIX_EPOCH_JULIAN_MS
                    : Math.round(d * 1000.0);
            if (ms < MIN_EPOCH_SECOND * 1000 || ms > MAX_EPOCH_SECOND * 1000 + 999) {
                throw Values.cannot(v, column, target, (julian ? "read as a Julian day number"
                        : "read as Unix seconds") + " (SQLite's 'auto' rule for a REAL) it is "
                        + "outside the years 0000 to 9999 that SQLite's date functions cover");
            }
            return OffsetDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC);
        } else {
            throw Values.cannot(v, column, target, "a date is TEXT, INTEGER or REAL");
        }
        long seconds = t.toEpochSecond();
        if (seconds < MIN_EPOCH_SECOND || seconds > MAX_EPOCH_SECOND) {
            throw Values.cannot(v, column, target, "in UTC it is outside the years 0000 to 9999 "
                    + "that SQLite's date functions cover");
        }
        return t;
    }

    /** Parses SQLite's date text forms; see the class comment. */
    private static OffsetDateTime parse(String s, String column, String target) {
        return new DateText(s, column, target).parse();
    }

    /**
     * One pass over a date text: {@code YYYY-MM-DD}, then optionally a space or {@code T} and
     * {@code HH:MM[:SS[.fff…]]}, then optionally spaces and {@code Z} or {@code ±HH:MM}, then
     * optionally spaces. {@code at} only moves forward; any other text is refused with the one
     * message that names the forms.
     */
    private static final class DateText {
        private final String s;
        private final String column;
        private final String target;
        private int at;
        private int hour;
        private int minute;
        private int second;
        private int nano;
        private ZoneOffset offset = ZoneOffset.UTC;

        DateText(String s, String column, String target) {
            this.s = s;
            this.column = column;
            this.target = target;
        }

        OffsetDateTime parse() {
            if (s.length() < 10 || !digits(s, 0, 4) || s.charAt(4) != '-' || !digits(s, 5, 2)
                    || s.charAt(7) != '-' || !digits(s, 8, 2)) {
                throw refused();
            }
            at = 10;
            if (at + 1 < s.length() && (s.charAt(at) == ' ' || s.charAt(at) == 'T')
                    && isDigit(s.charAt(at + 1))) {
                at++;
                time();
                skipSpaces();
                zone();
            }
            skipSpaces();
            if (at != s.length()) {
                throw refused();
            }
            try {
                return OffsetDateTime.of(
                        LocalDate.of(number(s, 0, 4), number(s, 5, 2), number(s, 8, 2)),
                        LocalTime.of(hour, minute, second, nano), offset);
            } catch (DateTimeException e) {
                throw Values.cannot(s, column, target, "no such date or time (" + e.getMessage()
                        + ")");
            }
        }

        private void time() {
            if (at + 5 > s.length() || !digits(s, at, 2) || s.charAt(at + 2) != ':'
                    || !digits(s, at + 3, 2)) {
                throw refused();
            }
            hour = number(s, at, 2);
            minute = number(s, at + 3, 2);
            at += 5;
            if (at < s.length() && s.charAt(at) == ':') {
                if (!digits(s, at + 1, 2)) {
                    throw refused();
                }
                second = number(s, at + 1, 2);
                at += 3;
                if (at + 1 < s.length() && s.charAt(at) == '.' && isDigit(s.charAt(at + 1))) {
                    at++;
                    int scale = 100_000_000;
                    while (at < s.length() && isDigit(s.charAt(at))) {
                        nano += (s.charAt(at) - '0') * scale; // digits past nanoseconds add 0
                        scale /= 10;
                        at++;
                    }
                }
            }
        }

        private void zone() {
            if (at < s.length() && (s.charAt(at) == 'Z' || s.charAt(at) == 'z')) {
                at++;
            } else if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-')) {
                if (!digits(s, at + 1, 2) || at + 3 >= s.length() || s.charAt(at + 3) != ':'
                        || !digits(s, at + 4, 2)) {
                    throw refused();
                }
                int sign = s.charAt(at) == '-' ? -1 : 1;
                int hours = number(s, at + 1, 2);
                int minutes = number(s, at + 4, 2);
                if (hours > 14 || minutes > 59) {
                    throw Values.cannot(s, column, target, "its offset is beyond the ±14:59 "
                            + "SQLite reads");
                }
                offset = ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
                at += 6;
            }
        }

        private void skipSpaces() {
            while (at < s.length() && s.charAt(at) == ' ') {
                at++;
            }
        }

        private RuntimeException refused() {
            return Values.cannot(s, column, target, TEXT_FORM);
        }
    }

    /** Digits with an optional sign, as {@code strftime('%s')} writes Unix seconds. */
    private static boolean wholeNumber(String s) {
        int from = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        return s.length() > from && s.length() - from <= 18 && digits(s, from, s.length() - from);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean digits(String s, int from, int count) {
        if (from + count > s.length()) {
            return false;
        }
        for (int i = from; i < from + count; i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int number(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            v = v * 10 + (s.charAt(i) - '0');
        }
        return v;
    }

    /** Whether SQLite's date functions cover this instant (years 0000 to 9999 UTC). */
    static boolean inRange(Instant t) {
        return t.getEpochSecond() >= MIN_EPOCH_SECOND && t.getEpochSecond() <= MAX_EPOCH_SECOND;
    }

    /** Whether a date's year has the four digits SQLite reads (0000 to 9999). */
    static boolean inRange(LocalDate d) {
        return d.getYear() >= 0 && d.getYear() <= 9999;
    }

    /** {@code YYYY-MM-DD}. */
    static String format(LocalDate d) {
        StringBuilder b = new StringBuilder(10);
        date(b, d);
        return b.toString();
    }

    /** {@code YYYY-MM-DD HH:MM:SS.SSSSSSSSS}. */
    static String format(LocalDateTime t) {
        return dateTime(new StringBuilder(29), t).toString();
    }

    /** {@code YYYY-MM-DD HH:MM:SS.SSSSSSSSSZ}, in UTC. */
    static String format(Instant t) {
        return dateTime(new StringBuilder(30), LocalDateTime.ofEpochSecond(t.getEpochSecond(),
                t.getNano(), ZoneOffset.UTC)).append('Z').toString();
    }

    /** {@code YYYY-MM-DD HH:MM:SS.SSSSSSSSS±HH:MM}, or {@code …Z} at offset zero. */
    static String format(OffsetDateTime t) {
        StringBuilder b = dateTime(new StringBuilder(35), t.toLocalDateTime());
        return (t.getOffset().getTotalSeconds() == 0 ? b.append('Z')
                : b.append(t.getOffset().getId())).toString();
    }

    private static StringBuilder dateTime(StringBuilder b, LocalDateTime t) {
        date(b, t.toLocalDate());
        b.append(' ');
        pad(b, t.getHour(), 2).append(':');
        pad(b, t.getMinute(), 2).append(':');
        pad(b, t.getSecond(), 2).append('.');
        return pad(b, t.getNano(), 9);
    }

    private static void date(StringBuilder b, LocalDate d) {
        pad(b, d.getYear(), 4).append('-');
        pad(b, d.getMonthValue(), 2).append('-');
        pad(b, d.getDayOfMonth(), 2);
    }

    private static StringBuilder pad(StringBuilder b, int value, int width) {
        for (int scale = pow10(width - 1); scale > 0; scale /= 10) {
            b.append((char) ('0' + value / scale % 10));
        }
        return b;
    }

    private static int pow10(int e) {
        int v = 1;
        for (int i = 0; i < e; i++) {
            v *= 10;
        }
        return v;
    }
}

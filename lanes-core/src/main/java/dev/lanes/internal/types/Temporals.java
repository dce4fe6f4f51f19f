package dev.lanes.internal.types;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The mechanics of SQLite's date texts, read and written; which storage class means what is
 * {@link ValueConvention}'s to say.
 *
 * <p><b>Text read.</b> {@code YYYY-MM-DD}, optionally followed by {@code T} or a space and {@code
 * HH:MM}, {@code HH:MM:SS} or {@code HH:MM:SS.S…} (up to nine fraction digits are kept), then
 * optionally {@code Z} or an offset {@code ±HH:MM} (up to ±14:59, as SQLite reads). Stricter
 * than SQLite in one way: a day that does not exist ({@code 2024-02-31}) is refused, not rolled
 * over.
 *
 * <p><b>Text written.</b> One fixed-width form per type, so that values of one type sort as text
 * in time order, also beside what {@code datetime()} and {@code CURRENT_TIMESTAMP} write ({@code
 * YYYY-MM-DD HH:MM:SS}, the same separator); SQLite's date functions read all of them: an
 * instant {@code 2024-05-06 07:08:09.123456789Z}, a wall time the same without {@code Z}, an
 * offset date-time the same with its offset ({@code +02:00}, {@code Z} for UTC), a date {@code
 * 2024-05-06}, a time of day {@code 07:08:09}.
 */
final class Temporals {
    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z as Unix seconds: SQLite's date range. */
    static final long MIN_EPOCH_SECOND = -62167219200L;
    static final long MAX_EPOCH_SECOND = 253402300799L;
    /** The largest offset SQLite reads: ±14:59. */
    static final int MAX_OFFSET_SECONDS = 14 * 3600 + 59 * 60;
    private static final String TEXT_FORM = "the forms are YYYY-MM-DD[( |T)HH:MM[:SS[.SSS]]]"
            + "[Z|±HH:MM]";

    private Temporals() {}

    /**
     * Parses SQLite's date text forms (see the class comment); text without a zone is a wall
     * time in {@code wallZone}.
     */
    static OffsetDateTime parse(String s, String column, String target, ZoneId wallZone) {
        DateText text = new DateText(s, column, target);
        OffsetDateTime t = text.parse();
        return text.zoned || wallZone.equals(ZoneOffset.UTC) ? t
                : t.toLocalDateTime().atZone(wallZone).toOffsetDateTime();
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
        private boolean zoned;

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
                zoned = true;
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
                zoned = true;
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
    static boolean wholeNumber(String s) {
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

    /** {@code HH:MM:SS}. */
    static String format(LocalTime t) {
        StringBuilder b = new StringBuilder(8);
        pad(b, t.getHour(), 2).append(':');
        pad(b, t.getMinute(), 2).append(':');
        return pad(b, t.getSecond(), 2).toString();
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

package dev.lanes.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration option the way people write one: {@code 500ms}, {@code 5s}, {@code 1.5s},
 * {@code 2m}, or ISO-8601 ({@code PT5S}). A bare number is refused, since guessing its unit would
 * turn a typo into a run a thousand times too long or too short.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m)");

    @Override
    public Duration convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        if (text.startsWith("p")) {
            try {
                return requireNotNegative(value, Duration.parse(text.toUpperCase(Locale.ROOT)));
            } catch (java.time.format.DateTimeParseException e) {
                throw invalid(value);
            }
        }
        Matcher m = AMOUNT_AND_UNIT.matcher(text);
        if (!m.matches()) {
            throw invalid(value);
        }
        BigDecimal nanosPerUnit;
        switch (m.group(2)) {
            case "ms":
                nanosPerUnit = BigDecimal.valueOf(1_000_000L);
                break;
            case "s":
                nanosPerUnit = BigDecimal.valueOf(1_000_000_000L);
                break;
            default: // "m"
                nanosPerUnit = BigDecimal.valueOf(60_000_000_000L);
                break;
        }
        return Duration.ofNanos(new BigDecimal(m.group(1)).multiply(nanosPerUnit).longValue());
    }

    private static Duration requireNotNegative(String value, Duration d) {
        if (d.isNegative()) {
            throw invalid(value);
        }
        return d;
    }

    private static TypeConversionException invalid(String value) {
        return new TypeConversionException(
                "'" + value + "' is not a duration; write it like 500ms, 5s, 1.5s or 2m");
    }
}

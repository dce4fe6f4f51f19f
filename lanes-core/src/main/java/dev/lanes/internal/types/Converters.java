package dev.lanes.internal.types;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/** The {@link Converter} of each Java type a column can be read as. */
public final class Converters {
    private static final Map<Class<?>, Converter<?>> BY_TYPE = Map.ofEntries(
            Map.entry(Object.class, (v, c) -> v),
            Map.entry(String.class, Values::toText),
            Map.entry(Long.class, Values::toLong),
            Map.entry(long.class, nonNull(long.class, Values::toLong)),
            Map.entry(Integer.class, Values::toInt),
            Map.entry(int.class, nonNull(int.class, Values::toInt)),
            Map.entry(Double.class, Values::toDouble),
            Map.entry(double.class, nonNull(double.class, Values::toDouble)),
            Map.entry(Boolean.class, Values::toBoolean),
            Map.entry(boolean.class, nonNull(boolean.class, Values::toBoolean)),
            Map.entry(byte[].class, Values::toBytes),
            Map.entry(BigDecimal.class, Values::toBigDecimal),
            Map.entry(UUID.class, Values::toUuid),
            Map.entry(Instant.class, ValueConvention::instant),
            Map.entry(LocalDate.class, ValueConvention::localDate),
            Map.entry(LocalDateTime.class, ValueConvention::localDateTime),
            Map.entry(OffsetDateTime.class, ValueConvention::offsetDateTime));

    /** The supported types, for error messages. */
    static final String SUPPORTED = "Long/long, Integer/int, Double/double, Boolean/boolean, "
            + "String, byte[], BigDecimal, UUID, an enum, Instant, LocalDate, LocalDateTime, "
            + "OffsetDateTime or Object";

    private Converters() {}

    /**
     * The converter to {@code type}; a primitive type refuses NULL.
     *
     * @throws IllegalArgumentException when no column can be read as {@code type}
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <T> Converter<T> forType(Class<T> type) {
        Converter<?> c = BY_TYPE.get(type);
        if (c != null) {
            return (Converter<T>) c;
        }
        if (type.isEnum()) {
            Class<? extends Enum> e = (Class<? extends Enum>) type;
            return (v, column) -> (T) Values.toEnum(v, e, column);
        }
        throw new IllegalArgumentException("a column cannot be read as " + type.getTypeName()
                + "; the types are " + SUPPORTED);
    }

    /** Whether {@link #forType} accepts {@code type}. */
    static boolean supports(Class<?> type) {
        return BY_TYPE.containsKey(type) || type.isEnum();
    }

    private static <T> Converter<T> nonNull(Class<?> primitive, Converter<T> boxed) {
        return (v, column) -> {
            if (v == null) {
                throw Values.nullPrimitive(column, primitive);
            }
            return boxed.convert(v, column);
        };
    }

    /** The wrapper class of a primitive type. */
    static Class<?> boxed(Class<?> primitive) {
        if (primitive == long.class) {
            return Long.class;
        }
        if (primitive == int.class) {
            return Integer.class;
        }
        if (primitive == double.class) {
            return Double.class;
        }
        return primitive == boolean.class ? Boolean.class : primitive;
    }
}

package dev.lanes.internal.types;

/**
 * Reads one column value as one Java type, by the rules of {@link Values} and {@link Temporals}.
 * Stateless; shared by every thread.
 */
@FunctionalInterface
public interface Converter<T> {
    /**
     * The value as {@code T}.
     *
     * @param value what the driver returned: {@code Long}, {@code Double}, {@code String}, {@code
     *     byte[]} or {@code null}
     * @param column the column's label, for the error message
     * @throws dev.lanes.MappingException when the value does not convert
     */
    T convert(Object value, String column);
}

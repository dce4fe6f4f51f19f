package dev.lanes;

/**
 * A command's result together with its {@link Profile}.
 *
 * @param value what the command returned
 * @param profile how it went
 * @param <T> the result's type
 */
public record Profiled<T>(T value, Profile profile) {}

package dev.lanes;

import java.util.Optional;

/**
 * How a database ended: {@link DatabaseState#CLOSED}, or {@link DatabaseState#DEAD} with the
 * cause. Returned by {@link Database#whenTerminated()}.
 *
 * @param state the final state
 * @param cause why it died, for {@code DEAD}
 */
public record Termination(DatabaseState state, Optional<Throwable> cause) {}

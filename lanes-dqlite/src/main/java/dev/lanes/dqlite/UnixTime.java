package dev.lanes.dqlite;

import java.time.Instant;

/**
 * A statement parameter sent with dqlite's UNIXTIME type (seconds since the epoch, an int64).
 *
 * <p>An {@link Instant} parameter is sent as ISO8601 text instead, which every dqlite release
 * binds. libdqlite 1.11 does not bind UNIXTIME parameters at all: it refuses the statement with
 * code 1005 ("bind parameters") before running it ({@link DqliteException#mayHaveRun()} is
 * false). Its rows do carry UNIXTIME values: an integer in a column declared {@code DATETIME},
 * {@code DATE} or {@code TIMESTAMP} comes back as an {@link Instant}.
 *
 * @param epochSeconds seconds since 1970-01-01T00:00:00Z
 */
public record UnixTime(long epochSeconds) {
    /** The parameter for an instant, truncated to whole seconds. */
    public static UnixTime of(Instant instant) {
        return new UnixTime(instant.getEpochSecond());
    }
}

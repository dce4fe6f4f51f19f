package dev.lanes.internal.jdbc;

import dev.lanes.ReadOptions;
import java.time.Duration;

/**
 * A statement's {@code setQueryTimeout}, made once into what its requests take: a read's {@link
 * ReadOptions#timeout() timeout} (its deadline covers the wait for a reader and the run, which
 * is stopped inside SQLite), a write's time to start (it is refused {@code NOT_STARTED} if the
 * lane has not taken it by then; an auto-commit write, once running, is never interrupted, since
 * SQLite's interrupt would roll back the whole commit group it runs in), and the run of each
 * statement of a read-write transaction, which is stopped at it. Immutable.
 *
 * @param seconds the timeout in seconds, 0 for none
 * @param read the options of a read
 * @param start how long a write may wait to start, and a read-write transaction's statement
 *     may run; null for no limit
 */
record QueryTimeout(int seconds, ReadOptions read, Duration start) {
    static final QueryTimeout NONE = new QueryTimeout(0, ReadOptions.DEFAULTS, null);

    /** The timeout of {@code setQueryTimeout(seconds)}; 0 (or less) is none. */
    static QueryTimeout of(int seconds) {
        if (seconds <= 0) {
            return NONE;
        }
        Duration timeout = Duration.ofSeconds(seconds);
        return new QueryTimeout(seconds, ReadOptions.builder().timeout(timeout).build(),
                timeout);
    }
}

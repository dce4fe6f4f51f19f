package dev.lanes;

import java.time.Duration;

/**
 * How one command went, returned by the {@code …Profiled} methods of {@link Database}.
 *
 * @param waited from the call until a thread took the command: queue wait, reader admission, the
 *     commands ahead of it in its commit group, and the hand-off to a thread
 * @param execution running the command on its connection: the statement, or the whole body
 * @param binds parameters bound to statements
 * @param rows result rows read
 * @param columns the widest result read, in columns
 * @param resultBytes logical bytes of the values read: 8 for a number, the UTF-8 length of a
 *     text, the length of a blob, 0 for NULL
 */
public record Profile(Duration waited, Duration execution, int binds, long rows, int columns,
        long resultBytes) {}

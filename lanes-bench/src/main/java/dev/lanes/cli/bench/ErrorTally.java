package dev.lanes.cli.bench;

import dev.lanes.LanesException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.sqlite.SQLiteException;

/**
 * Counts failed requests by kind. A kind is what a person would act on: the {@link
 * dev.lanes.ErrorCode} of a Lanes error, SQLite's result code of a driver error (such as {@code
 * SQLITE_BUSY}, "database is locked"), both when a Lanes error wraps a SQLite one (such as {@code
 * WRITE_FAILED/SQLITE_FULL}), else the exception's class name.
 *
 * <p>Concurrency: not thread-safe; one per measuring thread, merged after the threads joined.
 */
final class ErrorTally {
    // far deeper than any real cause chain; only guards against a cause cycle
    private static final int MAX_CAUSE_DEPTH = 32;

    private final Map<String, Long> counts = new TreeMap<>();

    void count(Throwable failure) {
        counts.merge(kindOf(failure), 1L, Long::sum);
    }

    void add(ErrorTally other) {
        other.counts.forEach((kind, n) -> counts.merge(kind, n, Long::sum));
    }

    /** The counts by kind, sorted by kind. */
    Map<String, Long> counts() {
        return Collections.unmodifiableMap(new TreeMap<>(counts));
    }

    static String kindOf(Throwable failure) {
        LanesException lanes = null;
        SQLiteException sqlite = null;
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_CAUSE_DEPTH; depth++, t = t.getCause()) {
            if (lanes == null && t instanceof LanesException) {
                lanes = (LanesException) t;
            }
            if (sqlite == null && t instanceof SQLiteException) {
                sqlite = (SQLiteException) t;
            }
        }
        if (lanes != null && sqlite != null) {
            return lanes.code().name() + "/" + sqlite.getResultCode().name();
        }
        if (lanes != null) {
            return lanes.code().name();
        }
        if (sqlite != null) {
            return sqlite.getResultCode().name();
        }
        return failure.getClass().getSimpleName();
    }
}

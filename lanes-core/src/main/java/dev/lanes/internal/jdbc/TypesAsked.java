package dev.lanes.internal.jdbc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The texts of one data source whose results' declared types were asked for when they had not
 * been read (see {@link DetachedMetaData}): their later auto-commit reads read them again.
 * Bounded ({@link #MAX_TEXTS}; Caffeine evicts what is least likely to be asked again): a text it
 * forgot is asked again, its results finding their types when they are asked for. Thread-safe:
 * the cache is, and {@link #any} is volatile, written after the mark it tells of.
 */
final class TypesAsked {
    static final int MAX_TEXTS = 1024;

    private final Cache<String, Boolean> texts = Caffeine.newBuilder().maximumSize(MAX_TEXTS)
            .executor(Runnable::run).build();

    /**
     * Whether any text was ever marked: most data sources never are, and their reads then look
     * nothing up. Set after the mark it tells of, so whoever sees it sees the mark.
     */
    private volatile boolean any;

    /** Whether a result of {@code sql} was asked for its declared types without having them. */
    boolean contains(String sql) {
        return any && texts.getIfPresent(sql) != null;
    }

    /** Marks {@code sql}: its reads read their declared types from now on. */
    void add(String sql) {
        texts.put(sql, Boolean.TRUE);
        any = true;
    }
}

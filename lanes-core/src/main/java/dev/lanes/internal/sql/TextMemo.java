package dev.lanes.internal.sql;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What was found once from an SQL text by the lexer (a classification, a shape), remembered by
 * the text, process-wide: applications run the same few texts again and again, and the lexer
 * passes of each check were a tenth of a point read's CPU.
 *
 * <p>Invariants: thread-safe; what is kept must be a pure function of the text, so a racing
 * first computation of one text stores an equal value; texts longer than {@link #MAX_LENGTH} are
 * not kept (a bulk literal must not stay in memory); when it holds {@link #MAX_ENTRIES} texts it
 * is emptied before the next one goes in, which bounds it without an eviction order (what an
 * application runs again fills it again).
 */
public final class TextMemo<V> {
    static final int MAX_ENTRIES = 1024;
    static final int MAX_LENGTH = 4096;

    private final ConcurrentHashMap<String, V> known = new ConcurrentHashMap<>();

    /** What was found for {@code sql}: remembered, else found now by {@code find} and kept. */
    public V get(String sql, Function<String, V> find) {
        V v = known.get(sql);
        if (v != null) {
            return v;
        }
        v = find.apply(sql);
        remember(sql, v);
        return v;
    }

    /** Whether {@code sql} was remembered. */
    public boolean contains(String sql) {
        return known.containsKey(sql);
    }

    /** Remembers {@code v} for {@code sql}, when the text is short enough to keep. */
    public void remember(String sql, V v) {
        if (sql.length() <= MAX_LENGTH) {
            if (known.size() >= MAX_ENTRIES) {
                known.clear();
            }
            known.put(sql, v);
        }
    }
}

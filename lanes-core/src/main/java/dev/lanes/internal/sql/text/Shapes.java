package dev.lanes.internal.sql.text;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;

/**
 * The statement shapes of one runtime, kept by text: applications run the same few texts again
 * and again, so a warm statement costs one lookup here and no lexer pass. Bounded by the length of
 * the texts it keeps ({@link #MAX_WEIGHT} characters in all; Caffeine evicts what is least likely
 * to be used again), never emptied at once; a text longer than {@link #MAX_LENGTH} is read each
 * time and not kept, so that a bulk literal does not stay in memory.
 *
 * <p>Thread-safe. A shape is a pure function of its text, so a racing first read of one text
 * finds an equal shape; eviction work runs on the calling thread (no pool of Caffeine's own).
 */
public final class Shapes {
    /** The characters of text kept in all. */
    static final long MAX_WEIGHT = 1L << 20;
    /** The longest text kept. */
    static final int MAX_LENGTH = 16 * 1024;

    private final Cache<String, StatementShape> kept = Caffeine.newBuilder()
            .maximumWeight(MAX_WEIGHT)
            .weigher((String sql, StatementShape shape) -> sql.length() + 16 * shape.parts().size())
            .executor(Runnable::run)
            .build();

    /** The shape of {@code sql}: kept, else read now (and kept when it is short enough). */
    public StatementShape of(String sql) {
        StatementShape shape = kept.getIfPresent(sql);
        if (shape != null) {
            return shape;
        }
        shape = StatementShape.of(sql);
        if (sql.length() <= MAX_LENGTH) {
            // the first one found is kept: two callers that read the same text at once replace
            // nothing
            StatementShape first = kept.asMap().putIfAbsent(sql, shape);
            return first != null ? first : shape;
        }
        return shape;
    }

    /**
     * The texts of the statements of {@code shape}, in order, each kept with its own shape (found
     * from {@code shape}, not read again), for a caller that runs them one by one and whose
     * guard looks each up.
     */
    public List<String> statements(StatementShape shape) {
        List<String> texts = new ArrayList<>(shape.parts().size());
        for (int i = 0; i < shape.parts().size(); i++) {
            StatementShape one = shape.statement(i);
            if (one.sql().length() <= MAX_LENGTH) {
                kept.put(one.sql(), one);
            }
            texts.add(one.sql());
        }
        return texts;
    }

    /** Whether the shape of {@code sql} is kept now; for tests. */
    boolean keeps(String sql) {
        return kept.getIfPresent(sql) != null;
    }

    /** Runs pending evictions now; for tests. */
    void cleanUp() {
        kept.cleanUp();
    }
}

package dev.lanes.internal.sql;

import dev.lanes.Row;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The caller's row consumer of one {@code db.stream}, remembering what it threw. A read wraps a
 * failure of its body in its own typed error (and a read handed to the pool crosses a future);
 * the stream's caller must get the consumer's exception itself, so {@link #run} rethrows that one
 * whatever the read path made of it.
 *
 * <p>Concurrency: {@link #accept} runs on the one thread that steps the statement (the caller's,
 * or a pool thread); {@link #run} reads {@link #failure} on the caller's thread after the read
 * ended, which the read's own hand-off (its future, or the same thread) orders after the write.
 * The field is volatile all the same, so that no path has to be relied on.
 */
public final class RowStream implements Consumer<Row> {
    private final Consumer<Row> each;
    private volatile Throwable failure;

    public RowStream(Consumer<Row> each) {
        this.each = each;
    }

    @Override
    public void accept(Row row) {
        try {
            each.accept(row);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        }
    }

    /**
     * Runs the read that feeds this stream and returns what it returned; when the consumer threw,
     * throws exactly that exception instead of whatever the read failed with.
     */
    public <T> T run(Supplier<T> read) {
        try {
            return read.get();
        } catch (RuntimeException | Error e) {
            Throwable thrown = failure;
            if (thrown instanceof RuntimeException) {
                throw (RuntimeException) thrown;
            }
            if (thrown instanceof Error) {
                throw (Error) thrown;
            }
            throw e;
        }
    }
}

package dev.lanes.internal.reader;

import dev.lanes.Row;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.sql.Statements;
import java.util.function.Consumer;

/**
 * One streamed query on a reader: its rows go to the consumer as SQLite steps them, none held,
 * so {@code maxResultBytes} does not apply. It is one statement (its own snapshot, no {@code
 * BEGIN}); the read's stop check runs before each row, so a deadline or a cancellation stops it
 * between rows even while the consumer, not SQLite, takes the time. Confined to the thread that
 * runs the read.
 */
final class StreamWork implements ReadWork<Long> {
    private final String sql;
    private final Object[] args;
    private final Consumer<Row> each;

    StreamWork(String sql, Object[] args, Consumer<Row> each) {
        this.sql = sql;
        this.args = args;
        this.each = each;
    }

    @Override
    public boolean transactional() {
        return false;
    }

    @Override
    public boolean checksStop() {
        return true;
    }

    @Override
    public Long run(ReaderConnection c, ConnectionGuard.StopCheck stop) throws Exception {
        return Statements.stream(c.cache, sql, args, row -> {
            stop.check();
            each.accept(row);
        });
    }
}

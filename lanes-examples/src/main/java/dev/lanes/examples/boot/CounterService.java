package dev.lanes.examples.boot;

import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * A read-then-write in one {@code @Transactional}: on Lanes, the transaction holds the writer lane
 * from its first statement ({@code BEGIN IMMEDIATE}), so concurrent increments queue behind each
 * other instead of failing with {@code SQLITE_BUSY}, and none is lost.
 */
@Service
public class CounterService {
    private final JdbcClient jdbc;

    public CounterService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Adds one to the counter, creating it at 1, and returns its new value. */
    @Transactional
    public long increment(String name) {
        Optional<Long> value = jdbc.sql("SELECT value FROM counter WHERE name = ?").param(name)
                .query(Long.class).optional();
        long next = value.orElse(0L) + 1;
        if (value.isPresent()) {
            jdbc.sql("UPDATE counter SET value = ? WHERE name = ?").params(next, name).update();
        } else {
            jdbc.sql("INSERT INTO counter(name, value) VALUES (?, ?)").params(name, next).update();
        }
        return next;
    }

    /** The counter's value, when it exists. */
    @Transactional(readOnly = true)
    public Optional<Long> value(String name) {
        return jdbc.sql("SELECT value FROM counter WHERE name = ?").param(name).query(Long.class)
                .optional();
    }
}

package com.example.counter;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Entries and counters, in SQL. */
@Service
public class CounterService {
    private final JdbcClient jdbc;

    public CounterService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void addEntry(int client, int seq) {
        jdbc.sql("INSERT INTO entry(client, seq) VALUES (?, ?)").params(client, seq).update();
    }

    /** Reads the counter, then writes it back one higher: safe only in a real transaction. */
    @Transactional
    public long increment(String name) {
        long value = jdbc.sql("SELECT value FROM counter WHERE name = ?").param(name)
                .query(Long.class).single();
        jdbc.sql("UPDATE counter SET value = ? WHERE name = ?").params(value + 1, name).update();
        return value + 1;
    }
}

package com.example.plain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Migrations;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

@Timeout(120)
class PlainLanesTest {
    private static final Migrations SCHEMA = Migrations.of(List.of(
            "CREATE TABLE entry(id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, "
                    + "seq INTEGER NOT NULL, UNIQUE (writer, seq))",
            "CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL); "
                    + "INSERT INTO counter(id, n) VALUES (1, 0)"));

    @TempDir
    Path dir;

    @Test
    void runsOnTheDriverThisBuildChose() {
        assertEquals(System.getProperty("expected.sqlite-jdbc.version"),
                SQLiteJDBCLoader.getVersion());
    }

    @Test
    void opensMigratesWritesConcurrentlyAndReads() throws Exception {
        Path file = dir.resolve("plain.db");
        int writers = 16;
        int each = 25;
        try (Lanes lanes = Lanes.create()) {
            Database db = lanes.open(file, DatabaseOptions.builder().initializer(SCHEMA).build());
            assertEquals(2, (int) db.query("PRAGMA user_version").get(0).getInt(0));

            CyclicBarrier start = new CyclicBarrier(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<?>> done = new ArrayList<>();
            try {
                for (int w = 0; w < writers; w++) {
                    int writer = w;
                    done.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        for (int seq = 0; seq < each; seq++) {
                            assertEquals(1, db.execute(
                                    "INSERT INTO entry(writer, seq) VALUES (?, ?)", writer, seq));
                            // read, then write what was read plus one, in one transaction
                            db.write(c -> {
                                long n;
                                try (PreparedStatement read = c.prepareStatement(
                                        "SELECT n FROM counter WHERE id = 1");
                                        ResultSet rs = read.executeQuery()) {
                                    rs.next();
                                    n = rs.getLong(1);
                                }
                                try (PreparedStatement write = c.prepareStatement(
                                        "UPDATE counter SET n = ? WHERE id = 1")) {
                                    write.setLong(1, n + 1);
                                    return write.executeUpdate();
                                }
                            });
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(writers * each,
                    (long) db.query("SELECT count(*) AS c FROM entry").get(0).getLong("c"));
            assertEquals(writers * each,
                    (long) db.query("SELECT n FROM counter WHERE id = 1").get(0).getLong("n"));
        }
        // a new runtime reads it all back, and the migrations do not run again
        try (Lanes lanes = Lanes.create()) {
            Database db = lanes.open(file, DatabaseOptions.builder().initializer(SCHEMA).build());
            assertEquals(writers * each,
                    (long) db.query("SELECT n FROM counter WHERE id = 1").get(0).getLong("n"));
            for (int w = 0; w < writers; w++) {
                assertEquals(each, (long) db.query(
                        "SELECT count(*) AS c FROM entry WHERE writer = ?", w).get(0).getLong("c"));
            }
            assertTrue(db.query("SELECT sqlite_version() AS v").get(0).getString("v")
                    .startsWith("3."));
        }
    }
}

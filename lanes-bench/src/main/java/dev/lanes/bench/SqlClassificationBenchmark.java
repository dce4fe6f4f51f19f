package dev.lanes.bench;

import dev.lanes.internal.sql.SqlText;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SQL classification every guarded statement pays before SQLite sees it: {@link
 * SqlText#transactionControl(String)} (is any statement {@code BEGIN}, {@code COMMIT}, …?) and
 * {@link SqlText#split(String)} (the statements of a script), on typical texts. Pure CPU; no
 * database.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SqlClassificationBenchmark {

    /** Typical statement texts, by kind. */
    @State(Scope.Benchmark)
    public static class Sql {
        /**
         * {@code select}: a point read; {@code insert}: a one-row insert; {@code commented}: an
         * update behind a line and a block comment; {@code begin}: transaction control behind a
         * comment (the refused case); {@code script}: a five-statement schema script with a
         * trigger whose body holds semicolons.
         */
        @Param({"select", "insert", "commented", "begin", "script"})
        public String kind;

        String text;

        @Setup
        public void pick() {
            text = switch (kind) {
                case "select" -> "SELECT id, name, email FROM users WHERE id = ?";
                case "insert" -> "INSERT INTO orders(user_id, total, created_at) VALUES (?, ?, ?)";
                case "commented" -> "-- nightly job\n/* owner: billing */ UPDATE accounts "
                        + "SET balance = balance - ? WHERE id = ? AND balance >= ?";
                case "begin" -> "/* the caller's own transaction */ BEGIN IMMEDIATE";
                case "script" -> """
                        CREATE TABLE IF NOT EXISTS users(id INTEGER PRIMARY KEY, name TEXT);
                        CREATE TABLE IF NOT EXISTS audit(id INTEGER PRIMARY KEY, note TEXT);
                        -- keep an audit trail; the trigger body holds semicolons
                        CREATE TRIGGER IF NOT EXISTS users_audit AFTER INSERT ON users BEGIN
                          INSERT INTO audit(note) VALUES ('user ' || new.name || ';');
                          UPDATE audit SET note = note WHERE id = last_insert_rowid();
                        END;
                        CREATE INDEX IF NOT EXISTS users_name ON users(name);
                        INSERT INTO users(name) VALUES ('it''s; fine');
                        """;
                default -> throw new IllegalArgumentException("unknown kind " + kind);
            };
        }
    }

    @Benchmark
    public String transactionControl(Sql s) {
        return SqlText.transactionControl(s.text);
    }

    @Benchmark
    public List<String> split(Sql s) {
        return SqlText.split(s.text);
    }
}

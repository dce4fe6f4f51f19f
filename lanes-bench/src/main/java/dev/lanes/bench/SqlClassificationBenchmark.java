package dev.lanes.bench;

import dev.lanes.internal.sql.text.Shapes;
import dev.lanes.internal.sql.text.StatementPolicy;
import dev.lanes.internal.sql.text.StatementShape;
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
 * What every statement pays before SQLite sees it: its shape read in one lexer pass ({@link
 * StatementShape#of}, a cold text), found again in the runtime's cache ({@link Shapes#of}, a warm
 * one), and admitted by a place's policy ({@link StatementPolicy#admit}), on typical texts. Pure
 * CPU; no database.
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
        Shapes shapes;
        StatementShape shape;

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
            shapes = new Shapes();
            shape = shapes.of(text);
        }
    }

    /** A cold text: its shape read with the lexer, one pass. */
    @Benchmark
    public StatementShape read(Sql s) {
        return StatementShape.of(s.text);
    }

    /** A warm text: its shape found in the runtime's cache. */
    @Benchmark
    public StatementShape cached(Sql s) {
        return s.shapes.of(s.text);
    }

    /** A warm text admitted by a writer's body policy (the refused {@code begin} throws). */
    @Benchmark
    public Object admit(Sql s) {
        try {
            StatementPolicy.SCRIPT.admit("bench", s.shapes.of(s.text), 0);
            return s.shape;
        } catch (RuntimeException refused) {
            return refused;
        }
    }
}

package dev.lanes.bench;

import dev.lanes.Row;
import dev.lanes.RowMapper;
import dev.lanes.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A point read by primary key mapped into a record of five components (a long, a text, an
 * ISO-8601 instant, an int and a boolean), over {@value #ROWS} rows, one JMH thread.
 *
 * <ul>
 *   <li>{@code queryAs}: {@code db.queryAs(Person.class, sql, id)}, the cached mapping plan;
 *   <li>{@code queryByHand}: {@code db.query(sql, id)} and a hand-written {@code new Person(
 *       row.getLong("id"), …)} with the same typed getters, what the record mapping replaces;
 *   <li>{@code queryRows}: {@code db.query(sql, id)} alone, the floor both stand on;
 *   <li>{@code mapOnlyPlan} and {@code mapOnlyByHand}: the two mappings of one row read
 *       beforehand, without the read ({@link RowMapper#forRecord} against the hand-written
 *       constructor call), so the mapping's own cost shows apart from the read's noise.
 * </ul>
 * The goal is {@code queryAs} within 1.2x of {@code queryByHand}. Ids cycle through the table
 * as in {@link PointReadBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class RowMappingBenchmark {
    /** As many rows as {@link PointReadBenchmark}, whose {@link PointReadBenchmark.Ids} pick the next one. */
    static final int ROWS = PointReadBenchmark.ROWS;
    static final String SELECT = "SELECT id, full_name, created_at, score, active FROM person "
            + "WHERE id = ?";

    /** The record both mappings build. */
    public record Person(long id, String fullName, Instant createdAt, int score, boolean active) {}

    @State(Scope.Benchmark)
    public static class LanesDb extends LanesFixture {

        @Setup(Level.Trial)
        public void open() {
            open("row-mapping", 0);
            db.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, "
                    + "created_at TEXT NOT NULL, score INTEGER NOT NULL, active INTEGER NOT NULL)");
            Instant base = Instant.parse("2024-05-06T07:08:09.123456789Z");
            List<Statement> inserts = new ArrayList<>(ROWS);
            for (int i = 1; i <= ROWS; i++) {
                inserts.add(Statement.of("INSERT INTO person VALUES (?, ?, ?, ?, ?)", i,
                        "person " + i, base.plusSeconds(i), i % 100, i % 2 == 0));
            }
            db.executeBatch(inserts); // one request; Lanes binds the Instant as its text
        }
    }

    /** Rows read once, for the mapping-only pair. */
    @State(Scope.Thread)
    public static class Fetched {
        final RowMapper<Person> mapper = RowMapper.forRecord(Person.class);
        Row[] rows;
        int next;

        @Setup(Level.Trial)
        public void read(LanesDb s) {
            rows = new Row[64];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = s.db.query(SELECT, i + 1).get(0);
            }
        }

        Row next() {
            next = (next + 1) & 63;
            return rows[next];
        }
    }

    @Benchmark
    public Person mapOnlyPlan(Fetched f) {
        return f.mapper.map(f.next());
    }

    @Benchmark
    public Person mapOnlyByHand(Fetched f) {
        return byHand(f.next());
    }

    static Person byHand(Row row) {
        return new Person(row.getLong("id"), row.getString("full_name"),
                row.getInstant("created_at"), row.getInt("score"), row.getBoolean("active"));
    }

    @Benchmark
    public Person queryAs(LanesDb s, PointReadBenchmark.Ids ids) {
        return s.db.queryAs(Person.class, SELECT, ids.next()).get(0);
    }

    @Benchmark
    public Person queryByHand(LanesDb s, PointReadBenchmark.Ids ids) {
        return byHand(s.db.query(SELECT, ids.next()).get(0));
    }

    @Benchmark
    public Row queryRows(LanesDb s, PointReadBenchmark.Ids ids) {
        return s.db.query(SELECT, ids.next()).get(0);
    }
}

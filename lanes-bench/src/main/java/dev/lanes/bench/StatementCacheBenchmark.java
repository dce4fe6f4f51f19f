package dev.lanes.bench;

import dev.lanes.Row;
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
 * The prepared-statement cache of {@code db.execute} (writer) and {@code db.query} (each reader),
 * on hit and on miss. The work per call is the same either way, a one-row update or a point
 * read of a row id cycling through {@value #ROWS} rows:
 *
 * <ul>
 *   <li>{@code …Hit}: one SQL text with the id as a parameter, so after the first call every
 *       call finds its statement prepared;
 *   <li>{@code …Miss}: the id written into the SQL text, {@value #ROWS} distinct texts used in a
 *       cycle, far more than the cache holds (default {@code statementCacheSize} 64), so with LRU
 *       eviction every call prepares anew (and evicts one).
 * </ul>
 * The texts are built in set-up, so the miss side pays no string building. The difference
 * between the two is what the cache saves per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class StatementCacheBenchmark {
    static final int ROWS = 4096;
    static final String UPDATE = "UPDATE t SET v = ? WHERE id = ?";
    static final String SELECT = "SELECT v FROM t WHERE id = ?";

    @State(Scope.Benchmark)
    public static class LanesDb extends LanesFixture {
        final String[] updates = new String[ROWS];
        final String[] selects = new String[ROWS];

        @Setup(Level.Trial)
        public void open() {
            open("statement-cache", ROWS);
            for (int i = 0; i < ROWS; i++) {
                updates[i] = "UPDATE t SET v = ? WHERE id = " + (i + 1);
                selects[i] = "SELECT v FROM t WHERE id = " + (i + 1);
            }
        }
    }

    /** The index of the next row, per thread. */
    @State(Scope.Thread)
    public static class Cursor {
        int i = -1;

        int next() {
            i = (i + 1) % ROWS;
            return i;
        }
    }

    @Benchmark
    public int executeHit(LanesDb s, Cursor c) {
        return s.db.execute(UPDATE, "x", c.next() + 1);
    }

    @Benchmark
    public int executeMiss(LanesDb s, Cursor c) {
        return s.db.execute(s.updates[c.next()], "x");
    }

    @Benchmark
    public List<Row> queryHit(LanesDb s, Cursor c) {
        return s.db.query(SELECT, c.next() + 1);
    }

    @Benchmark
    public List<Row> queryMiss(LanesDb s, Cursor c) {
        return s.db.query(s.selects[c.next()]);
    }
}

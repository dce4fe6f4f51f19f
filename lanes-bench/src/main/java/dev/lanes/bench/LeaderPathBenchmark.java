package dev.lanes.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Who runs SQLite: the caller's own thread, or a pool thread after a hop. One JMH thread (a
 * platform thread), the same body either way.
 *
 * <ul>
 *   <li>{@code leaderWrite}: {@code db.write(body)}: the lane is idle, so the caller leads its
 *       own turn and runs the body itself.
 *   <li>{@code poolWrite}: {@code db.writeAsync(body).join()}: an async write always goes
 *       through the runtime's pool, so this pays the hand-off to a pool thread and back.
 *   <li>{@code callerRead} / {@code poolRead}: the same for a point read, {@code db.read(body)}
 *       against {@code db.readAsync(body).join()}.
 *   <li>{@code jdbcWrite} / {@code jdbcRead}: the same bodies on a raw connection, the floor.
 * </ul>
 * Set-up checks which thread ran each path and fails the run if a path did not take the route
 * its name claims, so a change in the core cannot make these numbers lie quietly.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LeaderPathBenchmark {
    static final int ROWS = 10_000;

    @State(Scope.Benchmark)
    public static class LanesDb extends LanesFixture {

        @Setup(Level.Trial)
        public void open() {
            open("leader-path", ROWS);
            Thread me = Thread.currentThread();
            requireRoute("db.write", db.write(conn -> Thread.currentThread()) == me, "the caller");
            requireRoute("db.writeAsync", db.writeAsync(conn -> Thread.currentThread()).join() != me,
                    "a pool thread");
            requireRoute("db.read", db.read(conn -> Thread.currentThread()) == me, "the caller");
            requireRoute("db.readAsync", db.readAsync(conn -> Thread.currentThread()).join() != me,
                    "a pool thread");
        }

        private static void requireRoute(String call, boolean ok, String expected) {
            if (!ok) {
                throw new IllegalStateException(call + " did not run its body on " + expected
                        + "; this benchmark no longer measures what its name says");
            }
        }
    }

    @State(Scope.Benchmark)
    public static class Jdbc {
        Path dir;
        Connection conn;

        @Setup(Level.Trial)
        public void open() {
            dir = BenchSupport.tempDir("leader-path-jdbc");
            conn = BenchSupport.openJdbc(dir.resolve("jdbc.db"), ROWS, true);
        }

        @TearDown(Level.Trial)
        public void close() {
            BenchSupport.close(conn);
            BenchSupport.delete(dir);
        }
    }

    /** The next id to read, per thread. */
    @State(Scope.Thread)
    public static class Ids {
        long next;

        long next() {
            next = next % ROWS + 1;
            return next;
        }
    }

    static int insert(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(BenchSupport.INSERT)) {
            ps.setString(1, "x");
            return ps.executeUpdate();
        }
    }

    @Benchmark
    public int leaderWrite(LanesDb s) {
        return s.db.write(LeaderPathBenchmark::insert);
    }

    @Benchmark
    public int poolWrite(LanesDb s) {
        return s.db.writeAsync(LeaderPathBenchmark::insert).join();
    }

    @Benchmark
    public Object[] callerRead(LanesDb s, Ids ids) {
        long id = ids.next();
        return s.db.read(conn -> PointReadBenchmark.read(conn, id));
    }

    @Benchmark
    public Object[] poolRead(LanesDb s, Ids ids) {
        long id = ids.next();
        return s.db.readAsync(conn -> PointReadBenchmark.read(conn, id)).join();
    }

    @Benchmark
    public int jdbcWrite(Jdbc s) throws SQLException {
        return insert(s.conn);
    }

    @Benchmark
    public Object[] jdbcRead(Jdbc s, Ids ids) throws SQLException {
        return PointReadBenchmark.read(s.conn, ids.next());
    }
}

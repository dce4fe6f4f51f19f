package dev.lanes.bench;

import dev.lanes.Database;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Group commit under 1, 8 and 64 concurrent producers.
 *
 * <p><b>How producers are made:</b> with JMH's {@link Threads @Threads}. Each benchmark method
 * fixes its producer count ({@code …01}, {@code …08}, {@code …64}); JMH runs that many platform
 * threads, each calling the method in a loop and waiting for its own write to commit, all
 * against one shared database ({@link Scope#Benchmark}). The score is the total writes per
 * second across all producers. Run with {@code -t} left unset: a {@code -t} on the command line
 * would override every method's producer count.
 *
 * <ul>
 *   <li>{@code lanesExecute…}: {@code db.execute(INSERT, v)}, a single statement (no savepoint
 *       inside a group).
 *   <li>{@code lanesWrite…}: {@code db.write(body)} preparing and running the insert, isolated
 *       inside its group the way every body is.
 *   <li>{@code jdbcLocked…}: the baseline without group commit: one raw autocommit connection
 *       shared by all producers behind a lock, one commit per insert.
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class GroupCommitBenchmark {

    /** One database shared by every producer thread. */
    @State(Scope.Benchmark)
    public static class LanesDb extends LanesFixture {

        @Setup(Level.Trial)
        public void open() {
            open("group-commit", 0);
        }
    }

    /** One raw connection and its insert, shared by every producer behind a lock. */
    @State(Scope.Benchmark)
    public static class LockedJdbc {
        final ReentrantLock lock = new ReentrantLock();
        Path dir;
        Connection conn; // guarded by lock
        PreparedStatement insert; // guarded by lock

        @Setup(Level.Trial)
        public void open() throws SQLException {
            dir = BenchSupport.tempDir("group-commit-jdbc");
            conn = BenchSupport.openJdbc(dir.resolve("jdbc.db"), 0, true);
            insert = conn.prepareStatement(BenchSupport.INSERT);
        }

        int insert() throws SQLException {
            lock.lock();
            try {
                insert.setString(1, "x");
                return insert.executeUpdate();
            } finally {
                lock.unlock();
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            BenchSupport.close(insert);
            BenchSupport.close(conn);
            BenchSupport.delete(dir);
        }
    }

    static int write(Database db) {
        return db.write(conn -> {
            try (PreparedStatement ps = conn.prepareStatement(BenchSupport.INSERT)) {
                ps.setString(1, "x");
                return ps.executeUpdate();
            }
        });
    }

    @Benchmark
    @Threads(1)
    public int lanesExecute01(LanesDb s) {
        return s.db.execute(BenchSupport.INSERT, "x");
    }

    @Benchmark
    @Threads(8)
    public int lanesExecute08(LanesDb s) {
        return s.db.execute(BenchSupport.INSERT, "x");
    }

    @Benchmark
    @Threads(64)
    public int lanesExecute64(LanesDb s) {
        return s.db.execute(BenchSupport.INSERT, "x");
    }

    @Benchmark
    @Threads(1)
    public int lanesWrite01(LanesDb s) {
        return write(s.db);
    }

    @Benchmark
    @Threads(8)
    public int lanesWrite08(LanesDb s) {
        return write(s.db);
    }

    @Benchmark
    @Threads(64)
    public int lanesWrite64(LanesDb s) {
        return write(s.db);
    }

    @Benchmark
    @Threads(1)
    public int jdbcLocked01(LockedJdbc s) throws SQLException {
        return s.insert();
    }

    @Benchmark
    @Threads(8)
    public int jdbcLocked08(LockedJdbc s) throws SQLException {
        return s.insert();
    }

    @Benchmark
    @Threads(64)
    public int jdbcLocked64(LockedJdbc s) throws SQLException {
        return s.insert();
    }
}

package dev.lanes.bench;

import dev.lanes.Lanes;
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
 * One writer, nobody else: a one-row insert committed on its own, through the lane and through a
 * raw sqlite-jdbc connection in autocommit mode. One JMH thread, so every Lanes write finds the
 * lane idle and leads its own turn on the caller's thread.
 *
 * <ul>
 *   <li>{@code lanesExecute}: {@code db.execute(INSERT, v)}, the prepared-statement cache path;
 *       compare with {@code jdbcPrepared} (one statement prepared once, reused).
 *   <li>{@code lanesWrite}: {@code db.write(body)} whose body prepares, runs and closes the insert;
 *       compare with {@code jdbcPrepareEachTime}, which does the same on the raw connection.
 *   <li>{@code jdbcPreparedNoGeneratedKeys}: the raw baseline with the driver's generated-key
 *       lookup off, to show how much of a raw insert that lookup costs.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LoneWriteBenchmark {

    /** A Lanes runtime with one database holding the empty table. */
    @State(Scope.Benchmark)
    public static class LanesDb extends LanesFixture {

        @Setup(Level.Trial)
        public void open() {
            open("lone-write", 0);
        }
    }

    /** Raw connections: one with the driver's defaults, one with generated keys off. */
    @State(Scope.Benchmark)
    public static class Jdbc {
        Path dir;
        Connection conn;
        PreparedStatement insert;
        Connection connNoKeys;
        PreparedStatement insertNoKeys;

        @Setup(Level.Trial)
        public void open() throws SQLException {
            dir = BenchSupport.tempDir("lone-write-jdbc");
            conn = BenchSupport.openJdbc(dir.resolve("jdbc.db"), 0, true);
            insert = conn.prepareStatement(BenchSupport.INSERT);
            connNoKeys = BenchSupport.openJdbc(dir.resolve("jdbc-nokeys.db"), 0, false);
            insertNoKeys = connNoKeys.prepareStatement(BenchSupport.INSERT);
        }

        @TearDown(Level.Trial)
        public void close() {
            BenchSupport.close(insert);
            BenchSupport.close(conn);
            BenchSupport.close(insertNoKeys);
            BenchSupport.close(connNoKeys);
            BenchSupport.delete(dir);
        }
    }

    @Benchmark
    public int lanesExecute(LanesDb s) {
        return s.db.execute(BenchSupport.INSERT, "x");
    }

    @Benchmark
    public int lanesWrite(LanesDb s) {
        return s.db.write(conn -> {
            try (PreparedStatement ps = conn.prepareStatement(BenchSupport.INSERT)) {
                ps.setString(1, "x");
                return ps.executeUpdate();
            }
        });
    }

    @Benchmark
    public int jdbcPrepared(Jdbc s) throws SQLException {
        s.insert.setString(1, "x");
        return s.insert.executeUpdate();
    }

    @Benchmark
    public int jdbcPrepareEachTime(Jdbc s) throws SQLException {
        try (PreparedStatement ps = s.conn.prepareStatement(BenchSupport.INSERT)) {
            ps.setString(1, "x");
            return ps.executeUpdate();
        }
    }

    @Benchmark
    public int jdbcPreparedNoGeneratedKeys(Jdbc s) throws SQLException {
        s.insertNoKeys.setString(1, "x");
        return s.insertNoKeys.executeUpdate();
    }
}

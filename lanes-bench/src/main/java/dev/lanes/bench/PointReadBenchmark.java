package dev.lanes.bench;

import dev.lanes.Lanes;
import dev.lanes.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A point read by primary key over {@value #ROWS} rows, one JMH thread (a platform thread, so
 * Lanes runs the read right on it with a checked-out reader connection).
 *
 * <ul>
 *   <li>{@code lanesQuery}: {@code db.query(sql, id)}, statement cached per reader, rows
 *       detached into {@link Row}s; compare with {@code jdbcQuery}, a statement prepared once on
 *       a raw connection, the row read into a small array.
 *   <li>{@code lanesRead}: {@code db.read(body)} whose body prepares, runs and closes the select;
 *       compare with {@code jdbcPrepareEachTime}.
 *   <li>{@code lanesDataSource}: a connection from {@code db.dataSource()} that prepares, runs and
 *       closes the select, as a pooled JDBC caller does; compare with {@code
 *       jdbcPrepareEachTime}, which keeps its one raw connection open.
 * </ul>
 * Ids cycle through the table, the same sequence for every benchmark.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PointReadBenchmark {
    static final int ROWS = 10_000;

    @State(Scope.Benchmark)
    public static class LanesDb extends LanesFixture {

        @Setup(Level.Trial)
        public void open() {
            open("point-read", ROWS);
        }
    }

    @State(Scope.Benchmark)
    public static class Jdbc {
        Path dir;
        Connection conn;
        PreparedStatement select;

        @Setup(Level.Trial)
        public void open() throws SQLException {
            dir = BenchSupport.tempDir("point-read-jdbc");
            conn = BenchSupport.openJdbc(dir.resolve("jdbc.db"), ROWS, true);
            select = conn.prepareStatement(BenchSupport.SELECT_BY_ID);
        }

        @TearDown(Level.Trial)
        public void close() {
            BenchSupport.close(select);
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

    @Benchmark
    public List<Row> lanesQuery(LanesDb s, Ids ids) {
        return s.db.query(BenchSupport.SELECT_BY_ID, ids.next());
    }

    @Benchmark
    public Object[] lanesRead(LanesDb s, Ids ids) {
        long id = ids.next();
        return s.db.read(conn -> read(conn, id));
    }

    /** As a pooled JDBC caller reads (Spring's {@code JdbcTemplate}): connection, prepare, run. */
    @Benchmark
    public Object[] lanesDataSource(LanesDb s, Ids ids) throws SQLException {
        try (Connection conn = s.db.dataSource().getConnection()) {
            return read(conn, ids.next());
        }
    }

    @Benchmark
    public Object[] jdbcQuery(Jdbc s, Ids ids) throws SQLException {
        s.select.setLong(1, ids.next());
        return row(s.select);
    }

    @Benchmark
    public Object[] jdbcPrepareEachTime(Jdbc s, Ids ids) throws SQLException {
        return read(s.conn, ids.next());
    }

    static Object[] read(Connection conn, long id) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(BenchSupport.SELECT_BY_ID)) {
            ps.setLong(1, id);
            return row(ps);
        }
    }

    static Object[] row(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException("no row: the table was not seeded");
            }
            return new Object[] {rs.getLong(1), rs.getString(2)};
        }
    }
}

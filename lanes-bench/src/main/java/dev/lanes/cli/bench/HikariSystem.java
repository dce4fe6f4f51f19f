package dev.lanes.cli.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The usual way to share SQLite among threads on the JVM: a HikariCP pool of {@value #POOL_SIZE}
 * sqlite-jdbc connections. Each insert borrows a connection, prepares and runs the statement in
 * autocommit mode and returns the connection, as pooled application code does. Writers on
 * different connections contend for SQLite's one write lock; those that wait past the busy
 * timeout fail with {@code SQLITE_BUSY}, which the workload counts.
 */
final class HikariSystem implements BenchSystem {
    static final int POOL_SIZE = 8;

    private final HikariDataSource pool;

    private HikariSystem(HikariDataSource pool) {
        this.pool = pool;
    }

    static HikariSystem open(Path file, Synchronous synchronous) throws SQLException {
        HikariDataSource pool = openPool(file, synchronous);
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute(CREATE_TABLE);
        } catch (SQLException | RuntimeException e) {
            pool.close();
            throw e;
        }
        return new HikariSystem(pool);
    }

    /**
     * The baseline pool on {@code file}: {@value #POOL_SIZE} sqlite-jdbc connections, all opened
     * at once, in autocommit mode unless a caller turns it off for a transaction (HikariCP turns
     * it back on when the connection returns).
     */
    static HikariDataSource openPool(Path file, Synchronous synchronous) {
        return openPool(BaselineConnections.dataSource(file, synchronous));
    }

    /** The baseline pool over {@code connections}: {@value #POOL_SIZE} of them, opened at once. */
    static HikariDataSource openPool(DataSource connections) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("bench-hikari");
        config.setDataSource(connections);
        config.setMaximumPoolSize(POOL_SIZE);
        // a full pool from the start, so the warm-up is not spent opening connections
        config.setMinimumIdle(POOL_SIZE);
        config.setAutoCommit(true);
        return new HikariDataSource(config);
    }

    @Override
    public String name() {
        return "hikari";
    }

    /** The pool, for workloads that write their own JDBC. */
    DataSource dataSource() {
        return pool;
    }

    @Override
    public void insert(String payload) throws SQLException {
        JdbcScenario.insert(pool, payload);
    }

    @Override
    public long countRows() throws SQLException {
        try (Connection c = pool.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(COUNT_ROWS)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}

package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The fastest plain JDBC a lone writer can get: one sqlite-jdbc connection in autocommit mode with
 * its insert prepared once and reused. It is the lower bound of the lone-writer comparison (Lanes
 * caches its prepared statements too).
 *
 * <p>Concurrency: not thread-safe; the workload drives it from exactly one thread.
 */
final class RawJdbcSystem implements BenchSystem {
    private final Connection connection;
    private final PreparedStatement insert;

    private RawJdbcSystem(Connection connection, PreparedStatement insert) {
        this.connection = connection;
        this.insert = insert;
    }

    static RawJdbcSystem open(Path file, Synchronous synchronous) throws SQLException {
        Connection connection = BaselineConnections.dataSource(file, synchronous).getConnection();
        try {
            try (Statement s = connection.createStatement()) {
                s.execute(CREATE_TABLE);
            }
            return new RawJdbcSystem(connection, connection.prepareStatement(INSERT));
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "raw";
    }

    @Override
    public void insert(String payload) throws SQLException {
        insert.setString(1, payload);
        insert.executeUpdate();
    }

    @Override
    public long countRows() throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(COUNT_ROWS)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            insert.close();
        } finally {
            connection.close();
        }
    }
}

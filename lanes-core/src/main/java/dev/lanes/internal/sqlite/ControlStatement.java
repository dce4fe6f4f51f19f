package dev.lanes.internal.sqlite;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.sqlite.SQLiteConnection;

/**
 * One transaction-control statement ({@code BEGIN IMMEDIATE}, {@code COMMIT}, …) prepared once
 * and stepped many times. The driver closes a statement after most errors, so a failed one is
 * dropped and prepared again on next use.
 */
public final class ControlStatement implements AutoCloseable {
    private final SQLiteConnection connection;
    private final String sql;
    private PreparedStatement statement;

    public ControlStatement(SQLiteConnection connection, String sql) {
        this.connection = connection;
        this.sql = sql;
    }

    public void run() throws SQLException {
        PreparedStatement s = statement;
        if (s == null) {
            s = statement = connection.prepareStatement(sql);
        }
        try {
            s.executeUpdate();
        } catch (SQLException e) {
            statement = null;
            try {
                s.close();
            } catch (SQLException ignored) {
                // already closed by the driver; the original error matters
            }
            throw e;
        }
    }

    /** Whether the statement is prepared now (it is dropped after a failure). */
    public boolean isPrepared() {
        return statement != null;
    }

    @Override
    public void close() {
        PreparedStatement s = statement;
        statement = null;
        if (s != null) {
            try {
                s.close();
            } catch (SQLException ignored) {
                // closing a statement of a connection that is closing anyway
            }
        }
    }

    @Override
    public String toString() {
        return sql;
    }
}

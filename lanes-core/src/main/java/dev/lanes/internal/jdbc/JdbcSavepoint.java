package dev.lanes.internal.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A savepoint of a {@link LogicalTransaction}: its id (when unnamed) or its name, and the name
 * it has in SQL (an unnamed one gets {@code lanes_jdbc_<id>}). Immutable.
 */
final class JdbcSavepoint implements Savepoint {
    /** What a statement does to a savepoint. */
    enum Op { SET, RELEASE, ROLLBACK_TO }

    private final int id;
    private final String sqlName;
    private final boolean named;

    private JdbcSavepoint(int id, String sqlName, boolean named) {
        this.id = id;
        this.sqlName = sqlName;
        this.named = named;
    }

    static JdbcSavepoint named(String name) {
        return new JdbcSavepoint(0, name, true);
    }

    static JdbcSavepoint unnamed(int id) {
        return new JdbcSavepoint(id, "lanes_jdbc_" + id, false);
    }

    /** The name the savepoint has in SQL. */
    String sqlName() {
        return sqlName;
    }

    /** The statement that does {@code op} to this savepoint, its name quoted. */
    String sql(Op op) {
        String quoted = "\"" + sqlName.replace("\"", "\"\"") + "\"";
        switch (op) {
            case SET:
                return "SAVEPOINT " + quoted;
            case RELEASE:
                return "RELEASE " + quoted;
            case ROLLBACK_TO:
            default:
                return "ROLLBACK TO " + quoted;
        }
    }

    @Override
    public int getSavepointId() throws SQLException {
        if (named) {
            throw new SQLException("a named savepoint has no id");
        }
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (!named) {
            throw new SQLException("an unnamed savepoint has no name");
        }
        return sqlName;
    }

    @Override
    public String toString() {
        return "Savepoint[" + sqlName + "]";
    }
}

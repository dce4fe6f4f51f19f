package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingDatabaseMetaData;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The {@link DatabaseMetaData} of a guarded connection: the driver's, each call checked for
 * confinement, its result sets guarded and its {@code getConnection()} the guarded connection.
 */
final class GuardedMetaData extends DelegatingDatabaseMetaData
        implements Guarded {
    private final ConnectionGuard guard;
    private final DatabaseMetaData target;

    GuardedMetaData(ConnectionGuard guard, DatabaseMetaData target) {
        this.guard = guard;
        this.target = target;
    }

    @Override
    protected <T> T call(Call<T> call) throws SQLException {
        guard.checkOwner();
        return call.on(target);
    }

    @Override
    protected ResultSet rows(Call<ResultSet> call) throws SQLException {
        return guard.resultSet(call(call), null);
    }

    @Override
    public Connection getConnection() {
        guard.checkOwner();
        return guard.connection();
    }

    @Override
    public ConnectionGuard guard() {
        return guard;
    }

    @Override
    public DatabaseMetaData target() {
        return target;
    }

    @Override
    public String toString() {
        return guard.describe(target);
    }
}

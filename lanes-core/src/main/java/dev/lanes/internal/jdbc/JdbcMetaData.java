package dev.lanes.internal.jdbc;

import dev.lanes.internal.guard.delegating.DelegatingDatabaseMetaData;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.Rows;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link DatabaseMetaData} of a {@link LogicalConnection}: each call runs on the driver's
 * metadata where the connection's statements run (inside its transaction when one is open, so
 * that a schema its migration just created is visible; else on a reader), and a result set it
 * returns is read whole into a {@link DetachedResultSet}. {@code getConnection()} is the logical
 * connection, and {@code isReadOnly()} is its mode (the reader it would run on is always
 * read-only). A call without arguments that returns no result set (the product and its version,
 * {@code supportsX()}, limits, keywords) is a constant of the database: it is asked once per data
 * source and remembered ({@link Constants}), because Spring asks {@code getDatabaseProductName()}
 * for each {@code null} bound without a type, and each asking would take a reader. The
 * forwarding is {@link DelegatingDatabaseMetaData}'s, the one a body's metadata shares; equal
 * only to itself, and {@code unwrap} gives itself.
 */
final class JdbcMetaData extends DelegatingDatabaseMetaData implements OwnWrapper {
    /**
     * The answers of one data source's constant metadata calls, by their slot ({@link
     * DelegatingDatabaseMetaData#constant}).
     *
     * <p>Invariants: thread-safe, shared by every connection of the data source; a value, once
     * present, never changes (a racing first call computes it twice and keeps one, both equal);
     * {@code null} answers are stored as {@link #NULL}.
     */
    static final class Constants {
        private static final Object NULL = new Object();
        private final AtomicReferenceArray<Object> answers =
                new AtomicReferenceArray<>(DelegatingDatabaseMetaData.CONSTANTS);
    }

    private final LogicalConnection connection;
    private final JdbcBackend db;
    private final Constants constants;

    private JdbcMetaData(LogicalConnection connection, JdbcBackend db, Constants constants) {
        this.connection = connection;
        this.db = db;
        this.constants = constants;
    }

    /** The metadata of {@code connection}. */
    static DatabaseMetaData of(LogicalConnection connection, JdbcBackend db, Constants constants) {
        return new JdbcMetaData(connection, db, constants);
    }

    /** Asks the driver's metadata where the connection's statements run. */
    @Override
    protected <T> T call(Call<T> call) throws SQLException {
        return connection.onItsConnection(c -> call.on(c.getMetaData()));
    }

    @Override
    protected ResultSet rows(Call<ResultSet> call) throws SQLException {
        ResultData data = connection.onItsConnection(c -> {
            try (ResultSet rs = call.on(c.getMetaData())) {
                return rs == null ? null
                        : ResultData.read(rs, Rows.UNLIMITED, db.name(), "DatabaseMetaData");
            }
        });
        return data == null ? null : DetachedResultSet.of(data, null);
    }

    @Override
    protected <T> T constant(int slot, Call<T> call) throws SQLException {
        Object known = constants.answers.get(slot);
        if (known == null) {
            T asked = call(call);
            constants.answers.compareAndSet(slot, null, asked == null ? Constants.NULL : asked);
            known = constants.answers.get(slot);
        }
        @SuppressWarnings("unchecked")
        T answer = known == Constants.NULL ? null : (T) known;
        return answer;
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public String getURL() {
        return "jdbc:lanes:" + db.database().path();
    }

    @Override
    public String getDriverName() {
        return "Lanes (on the SQLite JDBC driver)";
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return true;
    }

    @Override
    public boolean supportsSavepoints() {
        return true;
    }

    @Override
    public boolean supportsTransactions() {
        return true;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    @Override
    public String toString() {
        return "DatabaseMetaData[" + db.name() + "]";
    }
}

package dev.lanes;

import java.sql.SQLException;

/**
 * Something done with a value that may fail with an {@link SQLException}: the shape of {@link
 * DatabaseOptions.Builder#onConnect(SqlConsumer)}, which sets up every new connection.
 *
 * @param <T> what it is given
 */
@FunctionalInterface
public interface SqlConsumer<T> {
    /**
     * Does it.
     *
     * @throws SQLException when it fails
     */
    void accept(T value) throws SQLException;
}

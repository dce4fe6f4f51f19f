package dev.lanes.internal.jdbc;

import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * The wrapper calls of the data source's statements, result sets and metadata, which wrap
 * nothing a caller may reach: {@code unwrap} gives the object itself when it is an instance of
 * the interface asked for, and fails otherwise. Stateless.
 */
interface OwnWrapper extends Wrapper {
    @Override
    default <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    default boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}

package dev.lanes.internal.guard;

import java.sql.SQLException;
import java.sql.Wrapper;

/**
 * What every guarded JDBC object shares: its guard, the driver's object it forwards to, and
 * {@code unwrap}, the one documented escape hatch: the guarded object itself for an interface it
 * implements, else the driver's object (or what the driver unwraps to). Both wrapper calls are
 * checked for confinement first.
 */
interface Guarded extends Wrapper {
    ConnectionGuard guard();

    /** The driver's object, unchecked: for the guard's own use. */
    Wrapper target();

    @Override
    default <T> T unwrap(Class<T> iface) throws SQLException {
        guard().checkOwner();
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        Wrapper target = target();
        return iface.isInstance(target) ? iface.cast(target) : target.unwrap(iface);
    }

    @Override
    default boolean isWrapperFor(Class<?> iface) throws SQLException {
        guard().checkOwner();
        return iface.isInstance(this) || iface.isInstance(target())
                || target().isWrapperFor(iface);
    }
}

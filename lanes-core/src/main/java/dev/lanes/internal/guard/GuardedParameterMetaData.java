package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingParameterMetaData;
import java.sql.ParameterMetaData;
import java.sql.SQLException;

/**
 * Parameter metadata the driver gave as one of its prepared statements (which are their
 * own metadata): guarded under {@link ParameterMetaData}, so that a cast does not reach the
 * driver's object.
 */
final class GuardedParameterMetaData extends DelegatingParameterMetaData
        implements Guarded {
    private final ConnectionGuard guard;
    private final ParameterMetaData target;

    GuardedParameterMetaData(ConnectionGuard guard, ParameterMetaData target) {
        this.guard = guard;
        this.target = target;
    }

    @Override
    protected ParameterMetaData delegate() {
        guard.checkOwner();
        return target;
    }

    @Override
    public ConnectionGuard guard() {
        return guard;
    }

    @Override
    public ParameterMetaData target() {
        return target;
    }

    @Override
    public String toString() {
        return guard.describe(target);
    }
}

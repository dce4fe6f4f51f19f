package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingResultSetMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * Result-set metadata the driver gave as one of its result sets or statements (which are their
 * own metadata): guarded under {@link ResultSetMetaData}, so that a cast does not reach the
 * driver's object.
 */
final class GuardedResultSetMetaData extends DelegatingResultSetMetaData
        implements Guarded {
    private final ConnectionGuard guard;
    private final ResultSetMetaData target;

    GuardedResultSetMetaData(ConnectionGuard guard, ResultSetMetaData target) {
        this.guard = guard;
        this.target = target;
    }

    @Override
    protected ResultSetMetaData delegate() {
        guard.checkOwner();
        return target;
    }

    @Override
    public ConnectionGuard guard() {
        return guard;
    }

    @Override
    public ResultSetMetaData target() {
        return target;
    }

    @Override
    public String toString() {
        return guard.describe(target);
    }
}

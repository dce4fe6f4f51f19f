package dev.lanes.internal.guard;

import dev.lanes.internal.guard.delegating.DelegatingCallableStatement;
import java.sql.CallableStatement;

/**
 * A callable statement a body made, guarded as {@link GuardedPreparedStatement} is; the methods
 * {@link CallableStatement} adds are forwarded as they are.
 */
final class GuardedCallableStatement extends GuardedPreparedStatement<CallableStatement>
        implements DelegatingCallableStatement<CallableStatement> {
    GuardedCallableStatement(ConnectionGuard guard, CallableStatement target,
            boolean preparedVacuum) {
        super(guard, target, preparedVacuum);
    }
}

package dev.lanes.fleet;

import dev.lanes.ErrorCode;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;

/**
 * A write at {@link Durability#REPLICATED} committed on its owner, but the fleet could not
 * confirm that it reached object storage while the owner surely held the tenant (the lease may
 * have lapsed, or the tenant was lost). Its outcome is {@link WriteOutcome#UNKNOWN}: the next
 * owner may or may not serve it. Never retried blindly: read first.
 */
public final class ReplicationUnconfirmedException extends LanesException {
    private static final long serialVersionUID = 1L;

    private final String tenant;

    /**
     * @param tenant the tenant written
     * @param message what could not be confirmed, and why
     */
    public ReplicationUnconfirmedException(String tenant, String message) {
        super(ErrorCode.WRITE_FAILED, WriteOutcome.UNKNOWN, message, null);
        this.tenant = tenant;
    }

    /** The tenant written. */
    public String tenant() {
        return tenant;
    }
}

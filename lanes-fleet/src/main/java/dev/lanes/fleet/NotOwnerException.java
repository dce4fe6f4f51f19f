package dev.lanes.fleet;

import dev.lanes.ErrorCode;
import dev.lanes.LanesException;
import dev.lanes.WriteOutcome;
import java.util.Optional;

/**
 * The tenant is not served by this node: another node owns it, or it has no owner yet and
 * placement gives it to another node, or it is moving. Nothing was started ({@link
 * WriteOutcome#NOT_STARTED}); the request may be sent to {@link #owner()}, or tried here again
 * later. Retryable.
 */
public final class NotOwnerException extends LanesException {
    private static final long serialVersionUID = 1L;

    private final String tenant;
    private final transient Member owner;

    /**
     * @param tenant the tenant asked for
     * @param owner the node that owns it or should claim it, or null when none is known
     * @param message what happened
     */
    public NotOwnerException(String tenant, Member owner, String message) {
        super(ErrorCode.NOT_OWNER, WriteOutcome.NOT_STARTED, message, null);
        this.tenant = tenant;
        this.owner = owner;
    }

    /** The tenant asked for. */
    public String tenant() {
        return tenant;
    }

    /** The node to ask instead, when one is known. */
    public Optional<Member> owner() {
        return Optional.ofNullable(owner);
    }
}

package dev.lanes.dqlite.internal.wire;

/**
 * A response that does not follow the protocol (a field past the end of the body, text without
 * its terminator, an unknown value type, a result set without its end marker). The connection
 * that read it closes, since it can no longer tell where the next message starts.
 */
public final class MalformedResponseException extends RuntimeException {
    public MalformedResponseException(String message) {
        super(message);
    }
}

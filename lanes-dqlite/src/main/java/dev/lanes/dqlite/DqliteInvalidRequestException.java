package dev.lanes.dqlite;

/**
 * The client refused the request before sending anything: too many parameters (dqlite 1.11 takes
 * 255), a parameter of no dqlite type, text with a NUL character, a message over the size limit,
 * a statement of another session. Never ran; the connection is untouched.
 */
public final class DqliteInvalidRequestException extends DqliteException {
    /** A failure with this message and no cause. */
    public DqliteInvalidRequestException(String message) {
        super(0, false, null, message, null);
    }
}

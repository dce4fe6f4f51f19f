package dev.lanes.fleet.internal;

/**
 * etcd did not answer a call (no quorum, no member reachable, a timeout): whether a write of the
 * call happened is not known from here. Inside the fleet only; a request that needed the call
 * gets a retryable {@code OverloadedException}.
 */
final class EtcdUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EtcdUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

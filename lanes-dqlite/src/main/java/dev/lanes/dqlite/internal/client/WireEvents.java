package dev.lanes.dqlite.internal.client;

import dev.lanes.dqlite.internal.wire.RequestType;

/**
 * Told when a request has been written whole to a node's socket, and when a response message has
 * been read. The client's own code needs no events; tests use them to act at a precise point of
 * an exchange (stop a node after a commit reached it), to count the requests sent (a request that
 * failed was never sent again) and the batches of a result set. Called on the thread that sent
 * the request, under its connection's request lock: must be quick and must not use the
 * connection.
 */
public interface WireEvents {
    WireEvents NONE = (address, type) -> {};

    void requestSent(String address, RequestType type);

    /** A response message of this type (a {@code Protocol.RESPONSE_*} code) arrived whole. */
    default void responseReceived(String address, int responseType) {}
}

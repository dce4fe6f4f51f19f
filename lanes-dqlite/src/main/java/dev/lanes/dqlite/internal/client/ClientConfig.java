package dev.lanes.dqlite.internal.client;

import java.time.Duration;

/**
 * The settings of a client, sealed when its {@code DqliteCluster} is built; see the builder for
 * what each means.
 */
public record ClientConfig(
        Duration connectTimeout,
        Duration requestTimeout,
        Duration leaderTimeout,
        Duration backoffBase,
        Duration backoffMax,
        long clientId,
        long maxMessageBytes,
        WireEvents events) {}

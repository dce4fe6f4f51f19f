package dev.lanes.spi;

import java.time.Duration;

/**
 * A cluster of nodes that replicate SQLite databases, one of them leading: the leader takes every
 * write and answers reads of committed data. Lanes asks it for sessions with the leader; the rest
 * (discovery, membership, transport) is the engine's.
 *
 * <p>Requirements Lanes relies on:
 * <ul>
 *   <li>A transaction ({@code BEGIN IMMEDIATE} … {@code COMMIT}) runs on one session; a statement
 *       that fails inside it is undone alone, as SQLite does, and the transaction stays open;
 *       {@code SAVEPOINT}, {@code RELEASE} and {@code ROLLBACK TO} work inside it.
 *   <li>Only {@code COMMIT} makes a transaction durable; a session that is lost before its
 *       {@code COMMIT} was sent leaves nothing of the transaction.
 *   <li>A write acknowledged by a session is durable on the cluster (for Raft: on a majority),
 *       and every later leader has it.
 *   <li>A second writer is refused {@link ClusterException.Kind#BUSY} at once rather than queued.
 * </ul>
 *
 * <p>Thread-safe. The engine belongs to its caller: closing a database opened on it does not
 * close it.
 */
public interface ClusterEngine {
    /**
     * Opens a session with the current leader, with {@code database} open (created if it does not
     * exist).
     *
     * @param timeout how long to look for a leader before giving up
     * @throws ClusterException of kind {@link ClusterException.Kind#NOT_RUN} when no leader was
     *     found within {@code timeout}, or the database cannot be opened
     */
    ClusterSession open(String database, Duration timeout);

    /** A short description for messages and logs: the nodes it reaches, for instance. */
    String describe();
}

package dev.lanes.spi;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A check every writer transaction of one database passes at its commit, set with {@link
 * dev.lanes.DatabaseOptions.Builder#commitFence}: a module that hands the right to write a
 * database from process to process (a lease, a fencing token) refuses the commits of a writer
 * that lost it. Every commit of the database's writer passes it: a group of writes, an
 * interactive transaction, the cork's, a script, and the initializer's; a maintenance body,
 * which runs outside a transaction, passes it in a transaction of its own just before it runs and
 * is asked {@link #heldThroughCommit()} after it.
 *
 * <p>Both methods run on the writer's thread while it holds the lane, so they should be quick;
 * they must not write to the same database through anything but the connection they are given.
 * A cluster database ({@code Lanes.openCluster}) refuses a fence when it opens, since its commit
 * is the cluster's.
 */
public interface CommitFence {
    /**
     * Called on the writer's thread, inside the open transaction after the members' work, just
     * before {@code COMMIT}. It may write through {@code connection} (record a fencing token,
     * say): that write is part of the same commit. Throwing refuses the commit: the transaction
     * is rolled back and its members end {@code ROLLED_BACK} (when the rollback is verified, else
     * {@code UNKNOWN}).
     *
     * @param connection the writer's connection inside the transaction, valid only during this
     *     call; it refuses transaction control
     * @throws SQLException to refuse the commit (any exception does)
     */
    void beforeCommit(Connection connection) throws SQLException;

    /**
     * Asked right after {@code COMMIT} returned. {@code false} means the right to write may have
     * been lost during the commit: its members end with the outcome {@code UNKNOWN} (never
     * reported failed, never reported committed), and the database's writer refuses later writes
     * until the database is reopened.
     *
     * @return whether the right to write was held from {@link #beforeCommit} until now
     */
    boolean heldThroughCommit();

    /**
     * Called on the caller's thread after a write it made committed, before the write is
     * acknowledged to it: {@code execute}, {@code write}, {@code executeBatch}, {@code
     * executeScript}, {@code maintenance}, {@code uncork}, an interactive transaction's {@code
     * commit}, and the data source's writes and commits (an asynchronous write's future
     * completes after it, on a thread of the common pool). Returning acknowledges the write;
     * waiting here is how a module makes an acknowledgement mean more than a local commit (the
     * write held in a replica, say). It runs outside the writer lane, so a wait here holds up
     * only its own caller.
     *
     * <p>The write has committed when this is called, so what it throws must say so: a {@link
     * dev.lanes.LanesException} whose outcome is {@link dev.lanes.WriteOutcome#UNKNOWN} (the
     * write may or may not survive the loss of this node), never one that reports the write
     * failed. The default acknowledges at once.
     */
    default void awaitAcknowledgement() {}
}

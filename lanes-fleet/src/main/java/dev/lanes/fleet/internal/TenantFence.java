package dev.lanes.fleet.internal;

import dev.lanes.spi.CommitFence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The commit fence of one tenant's ownership epoch. Before every commit it refuses unless this
 * node's lease is surely held ({@link LeaseClock}) and the epoch is still open, and writes the
 * epoch's fencing token into the tenant's database in the same commit (table {@value #TABLE},
 * one row: the token, the node, and how many groups this and earlier epochs committed). After
 * the commit it answers whether the lease was still surely held: a commit that ended past the
 * deadline may have landed after another node took the tenant, so its outcome is unknown.
 *
 * <p>A deposed owner therefore never acknowledges a write made after its lease may have
 * expired, and any row it still committed carries its old, smaller token: the next owner, which
 * restored before writing its larger token, sees it as stale.
 *
 * <p>Thread-safety: both methods run on the tenant's writer thread (one at a time); the state
 * read from other threads is volatile or atomic.
 */
public final class TenantFence implements CommitFence {
    /** The table that holds the fencing token. */
    public static final String TABLE = "lanes_fleet_fence";
    /** The table's definition, {@code IF NOT EXISTS}: an application may make it first. */
    public static final String CREATE = "CREATE TABLE IF NOT EXISTS " + TABLE + " (id INTEGER PRIMARY KEY"
            + " CHECK (id = 1), token INTEGER NOT NULL, node TEXT NOT NULL, groups INTEGER NOT NULL)";
    private static final String UPSERT = "INSERT INTO " + TABLE + " (id, token, node, groups)"
            + " VALUES (1, ?, ?, 1) ON CONFLICT (id) DO UPDATE SET token = excluded.token,"
            + " node = excluded.node, groups = groups + 1";

    /** Thrown to refuse a commit: this node may no longer own the tenant. */
    public static final class FencedException extends SQLException {
        private static final long serialVersionUID = 1L;

        FencedException(String message) {
            super(message, "40001");
        }
    }

    private final String tenant;
    private final String node;
    private final long token;
    private final LeaseClock clock;
    private final FleetEvents events;
    private final Runnable lapsed;
    private final Runnable acknowledgement;
    private volatile boolean closed;
    /** When (nanoTime) the last commit of this epoch ended while the lease was held. */
    private volatile long lastCommit = System.nanoTime();
    // writer thread only: whether a commit of this epoch made the table (the first may not)
    private boolean created;

    /**
     * @param events the node's events, told of each refused commit
     * @param lapsed told (on the writer's thread) when a commit ended past the deadline: its
     *     outcome is unknown and the database's writer refuses writes until it is reopened
     * @param acknowledgement what a write waits for, on its caller's thread, before it is
     *     acknowledged ({@link #awaitAcknowledgement}): its replication at {@code REPLICATED};
     *     null for nothing ({@code LOCAL})
     */
    public TenantFence(String tenant, String node, long token, LeaseClock clock,
            FleetEvents events, Runnable lapsed, Runnable acknowledgement) {
        this.tenant = tenant;
        this.node = node;
        this.token = token;
        this.clock = clock;
        this.events = events;
        this.lapsed = lapsed;
        this.acknowledgement = acknowledgement;
    }

    /** The epoch's fencing token. */
    public long token() {
        return token;
    }

    /** Whether this epoch's lease is surely held now. */
    public boolean held() {
        return !closed && clock.held();
    }

    /** Ends the epoch: later commits are refused. */
    public void close() {
        closed = true;
    }

    @Override
    public void beforeCommit(Connection c) throws SQLException {
        if (closed || !clock.held()) {
            events.commitRefused(tenant);
            throw new FencedException("tenant " + tenant + ": node " + node + " may no longer own"
                    + " it (epoch " + token + (closed ? " ended" : ": its lease may have expired")
                    + "); the commit is refused");
        }
        if (!created) {
            try (Statement s = c.createStatement()) {
                s.execute(CREATE);
            }
        }
        // the connection is a guard valid for this call only, so the statement is too
        try (PreparedStatement upsert = c.prepareStatement(UPSERT)) {
            upsert.setLong(1, token);
            upsert.setString(2, node);
            upsert.executeUpdate();
        }
    }

    @Override
    public boolean heldThroughCommit() {
        boolean held = clock.held();
        created |= held;
        lastCommit = System.nanoTime();
        if (!held) {
            lapsed.run();
        }
        return held;
    }

    /**
     * At {@code REPLICATED}, waits until the replica holds every commit of the tenant made before
     * the call, while this node surely owns it ({@link ReplicationConfirmation#await}); throws
     * {@link dev.lanes.fleet.ReplicationUnconfirmedException} ({@code UNKNOWN}) when that cannot
     * be confirmed in time. At {@code LOCAL}, returns at once.
     */
    @Override
    public void awaitAcknowledgement() {
        if (acknowledgement != null) {
            acknowledgement.run();
        }
    }

    /**
     * When the database last changed in this epoch: its last commit, or, before any, when the
     * fence was made (the file was just put in place).
     */
    public long lastChange() {
        return lastCommit;
    }

    @Override
    public String toString() {
        return "TenantFence[" + tenant + " epoch " + token + " on " + node + "]";
    }
}

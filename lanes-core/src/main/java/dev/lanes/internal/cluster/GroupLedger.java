package dev.lanes.internal.cluster;

import dev.lanes.Row;
import dev.lanes.internal.util.LogNames;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterException;
import dev.lanes.spi.ClusterSession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger of commit groups on a cluster database: table {@value #TABLE}, in which every
 * transaction of the lane inserts a unique group id, so that a {@code COMMIT} whose outcome is
 * uncertain (the leader was lost during it) is resolved by a write, never by a read alone.
 *
 * <h2>Resolution</h2>
 * After an uncertain {@code COMMIT}, {@link #resolve} inserts the same id again, as a write of its
 * own, on a session with the (new) leader, marked as the resolution's ({@code resolution = 1}):
 * <ul>
 *   <li>a primary-key violation proves the row is committed; it is the group's own row (marked 0)
 *       unless an earlier attempt of this very resolution inserted it (marked 1) and lost its
 *       answer. The mark is read on the leader that just refused the insert, after the refusal:
 *       the row is proven there, the read only tells whose it is;
 *   <li>a successful insert proves the group did not commit, and never will: the insert
 *       committed on a majority after the group's entry, so a leader that had the entry applied
 *       it first, and any other copy of the entry is discarded;
 *   <li>no answer (no leader, busy, a dropped connection) is tried again, with backoff, until
 *       the budget is spent: then the outcome stays unknown.
 * </ul>
 * A read alone is never taken as proof: a deposed leader can answer a stale one.
 *
 * <h2>Bound</h2>
 * Every {@value #PRUNE_EVERY} groups, the group's transaction also deletes the ids that are both
 * older than {@link #RETENTION} by the writer's clock and not among the newest {@value #KEEP}.
 * A resolution refuses to conclude "not applied" for a group older than half the retention, whose
 * row might have been pruned: it stays unknown instead. Clocks of the writers must agree within
 * minutes.
 *
 * <p>Concurrency: the id sequence is an atomic counter; everything else is immutable. Used by one
 * lane's holder, and by tests.
 */
final class GroupLedger {
    private static final Logger log = LoggerFactory.getLogger(LogNames.WRITER);

    static final String TABLE = "_lanes_groups";
    static final String CREATE = "CREATE TABLE IF NOT EXISTS " + TABLE
            + "(id TEXT PRIMARY KEY, at INTEGER NOT NULL, resolution INTEGER NOT NULL)";
    static final String RECORD = "INSERT INTO " + TABLE + "(id, at, resolution) VALUES (?, ?, ?)";
    static final String MARK = "SELECT resolution FROM " + TABLE + " WHERE id = ?";
    static final String PRUNE = "DELETE FROM " + TABLE + " WHERE rowid <= (SELECT max(rowid) FROM "
            + TABLE + ") - ? AND at < ?";
    static final Duration RETENTION = Duration.ofMinutes(10);
    static final int KEEP = 10_000;
    static final int PRUNE_EVERY = 1024;
    private static final long BACKOFF_BASE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long BACKOFF_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /** What a resolution found. */
    enum Verdict {
        /** The group's row is committed: so is the group. */
        COMMITTED,
        /** The resolution's insert committed: the group did not, and never will. */
        NOT_APPLIED,
        /** No proof within the budget: the outcome stays unknown. */
        UNRESOLVED
    }

    /**
     * A resolution's verdict, the session it ended on (open, with the leader, to go on with; null
     * when none), and what it saw, for messages.
     */
    record Resolution(Verdict verdict, ClusterSession session, String detail) {}

    private final String name;
    private final ClusterEngine engine;
    private final String database;
    /** Unique per lane instance, so ids never collide across processes or reopens. */
    private final String prefix;
    private final java.util.concurrent.atomic.AtomicLong sequence =
            new java.util.concurrent.atomic.AtomicLong();

    GroupLedger(String name, ClusterEngine engine, String database) {
        this.name = name;
        this.engine = engine;
        this.database = database;
        this.prefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-"
                + Long.toHexString(System.currentTimeMillis()) + "-";
    }

    /** Creates the table, if it does not exist, on {@code session}. */
    void create(ClusterSession session) {
        session.execute(CREATE, List.of());
    }

    /** A new group id, unique across lanes, processes and reopens. */
    String nextId() {
        return prefix + Long.toHexString(sequence.incrementAndGet());
    }

    /**
     * Inside the group's transaction: records its id, and prunes the old ones when due.
     *
     * @param nowMillis the writer's wall clock, stored with the id
     */
    void record(ClusterSession session, String id, long nowMillis) {
        session.execute(RECORD, List.of(id, nowMillis, 0L));
        if (sequence.get() % PRUNE_EVERY == 0) {
            session.execute(PRUNE, List.of((long) KEEP, nowMillis - RETENTION.toMillis()));
        }
    }

    /**
     * Resolves the uncertain commit of group {@code id}, recorded at {@code recordedAtMillis}, by
     * a write on the leader; see the class comment. Never throws for the cluster's failures.
     *
     * @param budgetNanos how long to keep trying to reach a leader that answers
     */
    Resolution resolve(String id, long recordedAtMillis, long budgetNanos) {
        Retry retry = new Retry(budgetNanos, BACKOFF_BASE_NANOS, BACKOFF_MAX_NANOS);
        String last = "no attempt";
        ClusterSession session = null;
        while (retry.next()) {
            long age = System.currentTimeMillis() - recordedAtMillis;
            if (age > RETENTION.toMillis() / 2) {
                closeQuietly(session);
                return new Resolution(Verdict.UNRESOLVED, null, "the group is " + age + " ms "
                        + "old, and its id may have been pruned from " + TABLE + "; last: " + last);
            }
            try {
                if (session == null || !session.isOpen()) {
                    session = engine.open(database, Duration.ofNanos(retry.timeoutNanos()));
                }
                session.execute(RECORD, List.of(id, System.currentTimeMillis(), 1L));
                return new Resolution(Verdict.NOT_APPLIED, session, "the resolution's own insert "
                        + "of the group id committed on " + session.node());
            } catch (ClusterException e) {
                if (e.kind() == ClusterException.Kind.CONSTRAINT && session.isOpen()) {
                    Resolution found = whose(session, id);
                    if (found != null) {
                        return found;
                    }
                    last = "the group id is committed, but reading whose it is failed";
                } else {
                    last = e.getMessage();
                }
                if (session != null && !session.isOpen()) {
                    session = null;
                }
                log.debug("{}: resolving group {}: attempt {} failed: {}", name, id,
                        retry.attempts(), last);
            }
        }
        closeQuietly(session);
        return new Resolution(Verdict.UNRESOLVED, null, "no leader answered the resolution's "
                + "insert within " + TimeUnit.NANOSECONDS.toMillis(budgetNanos) + " ms; last: "
                + last);
    }

    /** The insert was refused on the primary key: whose row is it? Null when the read failed. */
    private static Resolution whose(ClusterSession session, String id) {
        List<Row> rows;
        try {
            rows = session.query(MARK, List.of(id));
        } catch (ClusterException e) {
            return null;
        }
        if (rows.size() != 1) {
            return null;
        }
        Long mark = rows.get(0).getLong("resolution");
        if (mark != null && mark == 0) {
            return new Resolution(Verdict.COMMITTED, session, "the group's id is committed, "
                    + "found by " + session.node());
        }
        return new Resolution(Verdict.NOT_APPLIED, session, "an earlier attempt of the "
                + "resolution committed the id, found by " + session.node());
    }

    private static void closeQuietly(ClusterSession session) {
        if (session != null) {
            session.close();
        }
    }
}

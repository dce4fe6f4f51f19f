package dev.lanes.cli.bench;

import dev.lanes.dqlite.DqliteCluster;
import dev.lanes.dqlite.DqliteSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The usual way to write to dqlite from many threads: a pool of {@value #POOL_SIZE} client
 * sessions with the leader, each insert borrowing one and running it as its own transaction
 * (autocommit: one Raft commit per write), as pooled application code does. Sessions writing
 * at once contend for the leader's one write lock; dqlite refuses the losers with SQLITE_BUSY at
 * once (it has no busy wait), and the workload counts them ({@code DqliteBusyException}).
 *
 * <p>Concurrency: the pool is a blocking queue; a session is used by the one thread that took it.
 */
final class DqliteClientSystem implements BenchSystem {
    static final int POOL_SIZE = 8;

    private final DqliteCluster cluster;
    private final String database;
    private final BlockingQueue<DqliteSession> pool = new ArrayBlockingQueue<>(POOL_SIZE);

    private DqliteClientSystem(DqliteCluster cluster, String database) {
        this.cluster = cluster;
        this.database = database;
    }

    /** A pool of sessions on {@code database} (fresh), where it creates the bench table. */
    static DqliteClientSystem open(DqliteCluster cluster, String database) {
        DqliteClientSystem system = new DqliteClientSystem(cluster, database);
        try {
            for (int i = 0; i < POOL_SIZE; i++) {
                system.pool.add(cluster.connect(database));
            }
            DqliteSession first = system.pool.peek();
            first.exec(CREATE_TABLE);
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
        return system;
    }

    @Override
    public String name() {
        return "client";
    }

    @Override
    public void insert(String payload) throws InterruptedException {
        DqliteSession session = pool.take();
        try {
            session.exec(INSERT, payload);
        } finally {
            // a session whose node stopped leading is closed for good: the pool gets a new one
            pool.add(session.isOpen() ? session : cluster.connect(database));
        }
    }

    @Override
    public long countRows() throws InterruptedException {
        DqliteSession session = pool.take();
        try {
            return (Long) session.query(COUNT_ROWS).rows().get(0).get(0);
        } finally {
            pool.add(session);
        }
    }

    @Override
    public void close() {
        List<DqliteSession> sessions = new ArrayList<>();
        pool.drainTo(sessions);
        sessions.forEach(DqliteSession::close);
    }
}

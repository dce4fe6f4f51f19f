package dev.lanes.dqlite;

import dev.lanes.Row;
import dev.lanes.spi.ClusterEngine;
import dev.lanes.spi.ClusterException;
import dev.lanes.spi.ClusterSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link DqliteCluster} engine as Lanes uses it, watched by a test: it counts every statement
 * sent, and once {@linkplain #holdNextCommit() armed} it holds the next {@code COMMIT} until the
 * test {@linkplain Hold#release() releases} it (so that the test can freeze or kill the leader
 * with that commit about to be sent), and tells when a {@code COMMIT} failed.
 *
 * <p>Thread-safe: the hold and the counters are atomic; sessions are the delegate's.
 */
final class WatchedEngine implements ClusterEngine {
    private final DqliteCluster delegate;
    private final AtomicReference<Hold> nextCommit = new AtomicReference<>();
    private final AtomicReference<CountDownLatch> commitFailed = new AtomicReference<>();
    private final Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();

    /** A held COMMIT: its node, and the release. */
    static final class Hold {
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile String node;

        /** Waits until a COMMIT reached the hold; returns the node it is for. */
        String awaitReached() throws InterruptedException {
            if (!reached.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("no COMMIT reached the hold");
            }
            return node;
        }

        void release() {
            released.countDown();
        }
    }

    WatchedEngine(DqliteCluster delegate) {
        this.delegate = delegate;
    }

    Hold holdNextCommit() {
        Hold hold = new Hold();
        nextCommit.set(hold);
        return hold;
    }

    /** Counted down at the next COMMIT that fails. */
    CountDownLatch nextCommitFailure() {
        CountDownLatch latch = new CountDownLatch(1);
        commitFailed.set(latch);
        return latch;
    }

    int sentCount(String sql) {
        AtomicInteger n = sent.get(sql);
        return n == null ? 0 : n.get();
    }

    @Override
    public ClusterSession open(String database, Duration timeout) {
        ClusterSession session = delegate.open(database, timeout);
        return new ClusterSession() {
            @Override
            public long execute(String sql, List<Object> params) {
                if (sql.equals("COMMIT")) {
                    return commit(session);
                }
                sent.computeIfAbsent(sql, k -> new AtomicInteger()).incrementAndGet();
                return session.execute(sql, params);
            }

            @Override
            public List<Row> query(String sql, List<Object> params) {
                return session.query(sql, params);
            }

            @Override
            public boolean isOpen() {
                return session.isOpen();
            }

            @Override
            public String node() {
                return session.node();
            }

            @Override
            public void close() {
                session.close();
            }
        };
    }

    private long commit(ClusterSession session) {
        Hold hold = nextCommit.getAndSet(null);
        if (hold != null) {
            hold.node = session.node();
            hold.reached.countDown();
            try {
                if (!hold.released.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the held COMMIT was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        try {
            return session.execute("COMMIT", List.of());
        } catch (ClusterException e) {
            CountDownLatch failed = commitFailed.getAndSet(null);
            if (failed != null) {
                failed.countDown();
            }
            throw e;
        }
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}

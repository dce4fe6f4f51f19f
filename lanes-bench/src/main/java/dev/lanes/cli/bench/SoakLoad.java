package dev.lanes.cli.bench;

import dev.lanes.Database;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A soak's clients: platform threads that each send one request after the other, as fast as the
 * runtime answers, until closed. Every request picks its database ({@link SoakTargets}) and its
 * kind ({@link Request}, by share); the mix covers every way in: point reads and scans through
 * {@code db.query}, single inserts through {@code db.execute}, multi-row {@code db.write}
 * bodies, read-then-write transactions through {@code db.begin()}, bodies and transactions that
 * fail on purpose, and trims that delete old rows so that no table grows without bound (the
 * soak looks for growth in Lanes, not in the data).
 *
 * <h2>Concurrency</h2>
 * The tallies are {@link LongAdder}s and a concurrent map of them, incremented by the clients
 * and summed and reset by {@link #takeWindow()} from the soak's thread: a request that ends
 * during the reset counts in one window or the next, never in both or neither. {@link #stopped}
 * is volatile, set once by {@link #close()}, which then joins the clients; what a client
 * retains (a test's deliberate leak) stays in that client's own list, reachable until the load
 * is closed.
 */
final class SoakLoad implements AutoCloseable {
    /** A payload no healthy request leaves behind: the rows of bodies that fail on purpose. */
    static final String FAILED_PAYLOAD = "soak: this write failed on purpose";
    /** Rows of {@code events} a trim keeps. */
    static final int KEPT_ROWS = 200;
    /** Rows one multi-row body inserts. */
    static final int BATCH_ROWS = 5;

    private static final String POINT_READ = "SELECT v FROM kv WHERE id = ?";
    private static final String SCAN =
            "SELECT id, payload FROM events ORDER BY id DESC LIMIT " + BATCH_ROWS * 4;
    private static final String INSERT = "INSERT INTO events(payload) VALUES (?)";
    private static final String READ_COUNTER = "SELECT n FROM kv WHERE id = ?";
    private static final String WRITE_COUNTER = "UPDATE kv SET n = ? WHERE id = ?";
    private static final String TRIM =
            "DELETE FROM events WHERE id <= (SELECT max(id) FROM events) - " + KEPT_ROWS;

    /** The kinds of request and their share of the mix, in percent; the shares add up to 100. */
    enum Request {
        POINT_READ(35),
        SCAN(10),
        INSERT(25),
        MULTI_ROW_WRITE(10),
        TRANSACTION(10),
        TRIM(8),
        FAILING(2);

        private final int percent;

        Request(int percent) {
            this.percent = percent;
        }

        int percent() {
            return percent;
        }

        /** The kind for a uniform draw {@code roll} in 0..99. */
        static Request of(int roll) {
            int upTo = 0;
            for (Request r : values()) {
                upTo += r.percent;
                if (roll < upTo) {
                    return r;
                }
            }
            throw new IllegalArgumentException("a roll must be within 0..99, was " + roll);
        }
    }

    /** What the clients did in one window. */
    record Window(long requests, long deliberateFailures, Map<String, Long> errors) {}

    /** Thrown by a body or transaction that fails on purpose. */
    private static final class DeliberateFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DeliberateFailure() {
            super("soak: failing on purpose", null, false, false);
        }
    }

    private final List<Database> databases;
    private final SoakTargets targets;
    private final int retainBytesPerRequest;
    private final LongAdder requests = new LongAdder();
    private final LongAdder deliberate = new LongAdder();
    private final LongAdder committedTransactions = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> crash = new AtomicReference<>();
    private final List<Thread> clients = new ArrayList<>();
    private final long startNanos;
    private volatile boolean stopped;

    /**
     * Starts {@code clients} threads sending requests to {@code databases} now.
     *
     * @param retainBytesPerRequest bytes each request keeps reachable until close: 0, or a leak
     *     on purpose for the tests that show the soak catches one
     */
    SoakLoad(List<Database> databases, SoakTargets targets, int clientCount,
            int retainBytesPerRequest) {
        this.databases = List.copyOf(databases);
        this.targets = targets;
        this.retainBytesPerRequest = retainBytesPerRequest;
        this.startNanos = System.nanoTime();
        for (int i = 0; i < clientCount; i++) {
            int index = i;
            Thread t = new Thread(() -> loop(index), "soak-client-" + i);
            t.setDaemon(true);
            clients.add(t);
        }
        clients.forEach(Thread::start);
    }

    private void loop(int index) {
        SplittableRandom random = new SplittableRandom(index);
        String payload = Payloads.of(index);
        List<byte[]> retained = new ArrayList<>();
        try {
            while (!stopped) {
                Database db = databases.get(
                        targets.pick(random, System.nanoTime() - startNanos));
                try {
                    if (run(Request.of(random.nextInt(100)), db, random, payload)) {
                        requests.increment();
                    } else {
                        deliberate.increment();
                    }
                } catch (Exception e) {
                    // a failure is a result, counted by kind; the client goes on
                    errors.computeIfAbsent(ErrorTally.kindOf(e), k -> new LongAdder()).increment();
                }
                if (retainBytesPerRequest > 0) {
                    retained.add(new byte[retainBytesPerRequest]);
                }
            }
        } catch (Throwable t) {
            // an Error is no result: the soak is void (close() throws it)
            crash.compareAndSet(null, t);
        }
        // the leak of a test lives as long as the load, not past it
        retained.clear();
    }

    /**
     * Sends one request of {@code kind} to {@code db}.
     *
     * @return true when it succeeded, false when it failed on purpose and as it should (rolled
     *     back)
     * @throws Exception any other failure
     */
    private boolean run(Request kind, Database db, SplittableRandom random, String payload)
            throws Exception {
        long key = 1 + random.nextInt(ManyDatabases.KV_ROWS);
        switch (kind) {
            case POINT_READ:
                if (db.query(POINT_READ, key).size() != 1) {
                    throw new IllegalStateException(db.path() + ": row " + key + " missing");
                }
                return true;
            case SCAN:
                db.query(SCAN);
                return true;
            case INSERT:
                db.execute(INSERT, payload);
                return true;
            case MULTI_ROW_WRITE:
                db.write(conn -> {
                    try (PreparedStatement insert = conn.prepareStatement(INSERT)) {
                        for (int i = 0; i < BATCH_ROWS; i++) {
                            insert.setString(1, payload);
                            insert.executeUpdate();
                        }
                    }
                    return BATCH_ROWS;
                });
                return true;
            case TRANSACTION:
                try (Transaction tx = db.begin()) {
                    long n = tx.query(READ_COUNTER, key).get(0).getLong("n");
                    tx.execute(WRITE_COUNTER, n + 1, key);
                    tx.commit();
                }
                committedTransactions.increment();
                return true;
            case TRIM:
                db.execute(TRIM);
                return true;
            default:
                return !failOnPurpose(db, random.nextBoolean());
        }
    }

    /**
     * A body, or an interactive transaction, that inserts a row and then throws: the row must
     * never persist ({@link #FAILED_PAYLOAD}).
     *
     * @return true when it failed as it should: rolled back, with nothing else wrong
     */
    private static boolean failOnPurpose(Database db, boolean body) {
        if (body) {
            try {
                db.write(conn -> {
                    try (PreparedStatement insert = conn.prepareStatement(INSERT)) {
                        insert.setString(1, FAILED_PAYLOAD);
                        insert.executeUpdate();
                    }
                    throw new DeliberateFailure();
                });
            } catch (WriteFailedException e) {
                if (e.outcome() == WriteOutcome.ROLLED_BACK
                        && e.getCause() instanceof DeliberateFailure) {
                    return true;
                }
                throw e;
            }
            throw new IllegalStateException(db.path() + ": a body that threw was acknowledged");
        }
        try (Transaction tx = db.begin()) {
            tx.execute(INSERT, FAILED_PAYLOAD);
            throw new DeliberateFailure();
        } catch (DeliberateFailure e) {
            // closing the transaction rolled it back; a failure to do so is suppressed here
            if (e.getSuppressed().length == 0) {
                return true;
            }
            IllegalStateException failed = new IllegalStateException(
                    db.path() + ": an abandoned transaction did not roll back cleanly");
            failed.initCause(e.getSuppressed()[0]);
            throw failed;
        }
    }

    /** What the clients did since the previous call (or the start), and a new window begun. */
    Window takeWindow() {
        Map<String, Long> failed = new TreeMap<>();
        errors.forEach((kind, n) -> {
            long count = n.sumThenReset();
            if (count > 0) {
                failed.put(kind, count);
            }
        });
        return new Window(requests.sumThenReset(), deliberate.sumThenReset(), failed);
    }

    /** Read-then-write transactions that committed: the increments the counters must hold. */
    long committedTransactions() {
        return committedTransactions.sum();
    }

    /**
     * Stops the clients after their current request and waits for them.
     *
     * @throws IllegalStateException when a client died of an {@link Error}: the soak is void
     */
    @Override
    public void close() throws InterruptedException {
        stopped = true;
        for (Thread t : clients) {
            t.join();
        }
        Throwable t = crash.get();
        if (t != null) {
            throw new IllegalStateException("a soak client failed, the soak is void: " + t, t);
        }
    }
}

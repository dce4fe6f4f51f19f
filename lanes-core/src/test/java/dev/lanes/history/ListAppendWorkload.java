package dev.lanes.history;

import dev.lanes.Database;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.SqlFunction;
import dev.lanes.Statement;
import dev.lanes.Transaction;
import dev.lanes.WriteOptions;
import dev.lanes.history.Op.Kind;
import dev.lanes.history.Op.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The list-append workload: clients on platform and virtual threads run transactions of appends
 * and reads through every path Lanes has, and every operation is recorded with its invoke and
 * complete times ({@link System#nanoTime()}), its micro-ops, what its reads returned, and its
 * outcome. A corker may cork and uncork the database in cycles.
 *
 * <p><b>Schema.</b> {@code elems(seq INTEGER PRIMARY KEY, key, val)}: one row per appended value;
 * {@code seq} is the rowid SQLite assigns (the largest so far plus one; rows are never deleted),
 * so a key's list is its values {@code ORDER BY seq}, in the order they were applied. {@code val}
 * is deliberately not unique: an append applied twice must show as a duplicate, not be refused.
 * {@code taken(k UNIQUE)} holds one row; {@code INSERT OR ROLLBACK INTO taken} ends the whole
 * commit group's transaction (the culprit of a group-ending failure).
 *
 * <p><b>Concurrency.</b> Each client thread owns its {@link Random} and records only its own
 * operations; the shared recorders are concurrent ({@link AtomicLong} ids and values, a
 * concurrent queue of completed operations). The key pool is guarded by its lock. Only the
 * corker thread calls {@code cork()} and {@code uncork()}; clients release one permit of {@code
 * completions} per finished operation, and the corker takes its turns by them. {@code stop} is
 * set by anyone and read by every client before each operation. {@code
 * transactionGate} (when {@link Config#uncorkOutsideTransactions}) is held shared by an
 * interactive transaction from {@code begin()} to its end and exclusively by the corker around
 * {@code uncork()}, so no uncork is ever deferred behind an open transaction (a deferred uncork
 * returns before it is durable, which a crash test must not mistake for durability).
 */
final class ListAppendWorkload {
    static final String SCHEMA = "CREATE TABLE IF NOT EXISTS elems(seq INTEGER PRIMARY KEY, "
            + "key INTEGER NOT NULL, val INTEGER NOT NULL);\n"
            + "CREATE INDEX IF NOT EXISTS elems_by_key ON elems(key, seq);\n"
            + "CREATE TABLE IF NOT EXISTS taken(k INTEGER UNIQUE);\n"
            + "INSERT OR IGNORE INTO taken(k) VALUES (1);";
    static final String APPEND = "INSERT INTO elems(key, val) VALUES (?, ?)";
    static final String READ = "SELECT val FROM elems WHERE key = ? ORDER BY seq";
    /** Ends the whole commit group's transaction: the row is there and the clause is ROLLBACK. */
    static final String END_GROUP = "INSERT OR ROLLBACK INTO taken(k) VALUES (1)";
    /** Fails alone (the default ABORT clause): a batch that fails without ending the group. */
    static final String FAIL_ALONE = "INSERT INTO taken(k) VALUES (1)";

    /** What the workload runs. Immutable; change it with the {@code with…} methods. */
    record Config(int clients, int opsPerClient, boolean virtualThreads, int activeKeys,
            int appendsPerKey, Map<Kind, Integer> mix, double failRate, double culpritRate,
            double nonReplayableRate, int corkEvery, int corkEpochs,
            boolean uncorkOutsideTransactions, long seed) {

        Config {
            mix = Map.copyOf(mix);
            if (mix.containsKey(Kind.JDBC)) {
                // HOOK(db.dataSource()): add a JdbcClient here when Database.dataSource() exists.
                throw new IllegalArgumentException("no JDBC client yet: Database.dataSource() "
                        + "does not exist");
            }
            if (culpritRate > 0 && corkEvery > 0) {
                throw new IllegalArgumentException("a group-ending failure while corked loses the "
                        + "corked writes by design (uncork reports it); run culprits uncorked");
            }
        }

        /** Every client kind, the write paths weighted above the reads. */
        static Config defaults() {
            Map<Kind, Integer> mix = new EnumMap<>(Kind.class);
            mix.put(Kind.WRITE, 5);
            mix.put(Kind.WRITE_ASYNC, 2);
            mix.put(Kind.EXECUTE, 3);
            mix.put(Kind.BATCH, 2);
            mix.put(Kind.TRANSACTION, 3);
            mix.put(Kind.QUERY, 3);
            mix.put(Kind.READ, 2);
            mix.put(Kind.READ_ASYNC, 1);
            return new Config(16, 150, true, 6, 48, mix, 0, 0, 0, 0, 0, false, 42);
        }

        Config withClients(int n, int ops) {
            return new Config(n, ops, virtualThreads, activeKeys, appendsPerKey, mix, failRate,
                    culpritRate, nonReplayableRate, corkEvery, corkEpochs,
                    uncorkOutsideTransactions, seed);
        }

        /** Bodies that throw, transactions rolled back, batches that fail; culprits; opt-outs. */
        Config withFaults(double fail, double culprit, double nonReplayable) {
            return new Config(clients, opsPerClient, virtualThreads, activeKeys, appendsPerKey,
                    mix, fail, culprit, nonReplayable, corkEvery, corkEpochs,
                    uncorkOutsideTransactions, seed);
        }

        /**
         * Cork after every {@code every} completed operations and uncork after as many more;
         * with {@code epochs > 0}, the cork after that many cycles is never uncorked.
         */
        Config withCork(int every, int epochs, boolean outsideTransactions) {
            return new Config(clients, opsPerClient, virtualThreads, activeKeys, appendsPerKey,
                    mix, failRate, culpritRate, nonReplayableRate, every, epochs,
                    outsideTransactions, seed);
        }

        Config withSeed(long s) {
            return new Config(clients, opsPerClient, virtualThreads, activeKeys, appendsPerKey,
                    mix, failRate, culpritRate, nonReplayableRate, corkEvery, corkEpochs,
                    uncorkOutsideTransactions, s);
        }
    }

    /** Told of each operation as it is invoked (before it reaches Lanes) and as it completes. */
    interface Listener {
        void invoked(Op pending);

        void completed(Op done);
    }

    /**
     * What a run recorded beyond the history: faults meant, outcomes seen, surprises. {@code
     * corkRefusals}: cork or uncork calls refused as invalid at that moment (a cork right after
     * an uncork that was deferred behind an open transaction), tried again later.
     */
    record Stats(long virtualClients, long meantToFailButOk, Map<Outcome, Long> innocentsNotOk,
            List<String> innocentFailures, List<Throwable> unexpected, long corkCycles,
            long corkRefusals) {

        /** Innocent operations (no fault meant, replayable) that ended other than OK. */
        long innocentsFailed() {
            return innocentsNotOk.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Database db;
    private final Config config;
    private final Listener listener;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong values = new AtomicLong();
    private final ConcurrentLinkedQueue<Op> done = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> innocentFailures = new ConcurrentLinkedQueue<>();
    private final AtomicLong meantToFailButOk = new AtomicLong();
    private final Map<Outcome, AtomicLong> innocentsNotOk = new EnumMap<>(Map.of(
            Outcome.ROLLED_BACK, new AtomicLong(), Outcome.NOT_STARTED, new AtomicLong(),
            Outcome.UNKNOWN, new AtomicLong()));
    private final AtomicInteger virtualClients = new AtomicInteger();
    private final AtomicLong corkCycles = new AtomicLong();
    private final AtomicLong corkRefusals = new AtomicLong();
    private final Semaphore completions = new Semaphore(0);
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ReentrantReadWriteLock transactionGate = new ReentrantReadWriteLock();
    private final Keys keys;

    ListAppendWorkload(Database db, Config config, Listener listener) {
        this.db = db;
        this.config = config;
        this.listener = listener;
        this.keys = new Keys(config.activeKeys(), config.appendsPerKey());
    }

    ListAppendWorkload(Database db, Config config) {
        this(db, config, new Listener() {
            @Override
            public void invoked(Op pending) {}

            @Override
            public void completed(Op op) {}
        });
    }

    static void createSchema(Database db) {
        db.executeScript(SCHEMA);
    }

    /** Every list in the database, as a reader sees it now. */
    static Map<Integer, List<Long>> finalState(Database db) {
        Map<Integer, List<Long>> lists = new TreeMap<>();
        for (Row r : db.query("SELECT key, val FROM elems ORDER BY key, seq")) {
            lists.computeIfAbsent(r.getLong("key").intValue(), k -> new ArrayList<>())
                    .add(r.getLong("val"));
        }
        return lists;
    }

    /** Asks running clients to stop after their current operation. */
    void stop() {
        stop.set(true);
    }

    /**
     * Runs the clients (and the corker) to the end: {@code opsPerClient} each, or until {@link
     * #stop()}. Waits at most {@code timeoutSeconds} for them.
     */
    Stats run(long timeoutSeconds) throws InterruptedException {
        CountDownLatch clientsDone = new CountDownLatch(config.clients());
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < config.clients(); c++) {
            int client = c + 1;
            Runnable body = () -> {
                try {
                    runClient(client);
                } catch (Throwable t) {
                    unexpected.add(t);
                } finally {
                    clientsDone.countDown();
                }
            };
            boolean virtual = config.virtualThreads() && client % 2 == 0 && VirtualThreads.AVAILABLE;
            Thread t = virtual ? VirtualThreads.unstarted(body) : new Thread(body);
            t.setName("history-client-" + client + (virtual ? "-virtual" : ""));
            if (virtual) {
                virtualClients.incrementAndGet();
            }
            threads.add(t);
        }
        Thread corker = null;
        if (config.corkEvery() > 0) {
            corker = new Thread(() -> {
                try {
                    runCorker(clientsDone);
                } catch (Throwable t) {
                    unexpected.add(t);
                }
            }, "history-corker");
            corker.start();
        }
        threads.forEach(Thread::start);
        if (!clientsDone.await(timeoutSeconds, TimeUnit.SECONDS)) {
            stop();
            throw new AssertionError("the clients did not finish within " + timeoutSeconds + " s");
        }
        if (corker != null) {
            corker.join(TimeUnit.SECONDS.toMillis(timeoutSeconds));
            if (corker.isAlive()) {
                throw new AssertionError("the corker did not finish");
            }
        }
        Map<Outcome, Long> innocents = new EnumMap<>(Outcome.class);
        innocentsNotOk.forEach((o, n) -> {
            if (n.get() > 0) {
                innocents.put(o, n.get());
            }
        });
        return new Stats(virtualClients.get(), meantToFailButOk.get(), innocents,
                List.copyOf(innocentFailures), List.copyOf(unexpected), corkCycles.get(),
                corkRefusals.get());
    }

    /** The operations recorded so far (all of them once {@link #run} returned). */
    List<Op> ops() {
        return List.copyOf(done);
    }

    // ------------------------------------------------------------------ clients

    private void runClient(int client) {
        Random random = new Random(config.seed() * 7919 + client);
        List<Kind> weighted = new ArrayList<>();
        config.mix().forEach((kind, weight) -> {
            for (int i = 0; i < weight; i++) {
                weighted.add(kind);
            }
        });
        weighted.sort(null); // Map.copyOf has no order; the seed must decide the mix
        for (int i = 0; i < config.opsPerClient() && !stop.get(); i++) {
            Kind kind = weighted.get(random.nextInt(weighted.size()));
            runOne(client, kind, random);
            completions.release();
        }
    }

    /** How an operation is meant to go wrong, if at all. */
    private enum Fault { NONE, FAIL, CULPRIT }

    /** The kinds a fault can be planted in: bodies, batches and transactions. */
    private static final Set<Kind> FAULTABLE = EnumSet.of(Kind.WRITE,
            Kind.WRITE_ASYNC, Kind.BATCH, Kind.TRANSACTION);

    private void runOne(int client, Kind kind, Random random) {
        double f = random.nextDouble();
        Fault fault = !FAULTABLE.contains(kind) ? Fault.NONE
                : f < config.failRate() ? Fault.FAIL
                : f < config.failRate() + config.culpritRate() ? Fault.CULPRIT : Fault.NONE;
        boolean replayable = random.nextDouble() >= config.nonReplayableRate();
        List<Mop> planned = plan(kind, random);
        boolean viaRun = random.nextInt(3) == 0;
        Op pending = new Op(ids.incrementAndGet(), client, kind, planned, System.nanoTime(),
                Op.NEVER, Outcome.UNKNOWN);
        listener.invoked(pending); // before Lanes sees it: a killed run must know it was asked
        Op end;
        try {
            List<Mop> result = execute(kind, planned, fault, replayable, viaRun);
            end = pending.completedAs(System.nanoTime(), Outcome.OK, result);
            if (fault != Fault.NONE) {
                meantToFailButOk.incrementAndGet();
            }
        } catch (LanesException e) {
            end = pending.completedAs(System.nanoTime(), Outcome.of(e.outcome()), planned);
            if (fault == Fault.NONE && replayable) {
                innocentsNotOk.get(end.outcome()).incrementAndGet();
                if (innocentFailures.size() < 5) {
                    innocentFailures.add(kind + " " + planned + ": " + e);
                }
            }
        } catch (DeliberateRollback e) {
            end = pending.completedAs(System.nanoTime(), Outcome.ROLLED_BACK,
                    planned);
        } catch (RuntimeException | Error e) {
            // Not a Lanes outcome: nobody can say what happened to it. The test fails on it.
            unexpected.add(e);
            end = pending.completedAs(System.nanoTime(), Outcome.UNKNOWN, planned);
        }
        done.add(end);
        listener.completed(end);
    }

    private List<Mop> plan(Kind kind, Random random) {
        List<Mop> mops = new ArrayList<>();
        switch (kind) {
            case WRITE, WRITE_ASYNC -> {
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    mops.add(random.nextBoolean() ? appendMop(random) : Mop.pendingRead(keys.forRead(random)));
                }
            }
            case EXECUTE -> mops.add(appendMop(random));
            case BATCH -> {
                for (int n = 2 + random.nextInt(2); n > 0; n--) {
                    mops.add(appendMop(random));
                }
            }
            case TRANSACTION -> {
                // read, then append to what was read: the interactive read-modify-write
                for (int n = 1 + random.nextInt(2); n > 0; n--) {
                    Mop.Append a = appendMop(random);
                    mops.add(Mop.pendingRead(a.key()));
                    mops.add(a);
                }
            }
            case QUERY -> mops.add(Mop.pendingRead(keys.forRead(random)));
            case READ, READ_ASYNC -> {
                for (int n = 2 + random.nextInt(3); n > 0; n--) {
                    mops.add(Mop.pendingRead(keys.forRead(random)));
                }
            }
            default -> throw new IllegalArgumentException("no client for " + kind);
        }
        return mops;
    }

    private Mop.Append appendMop(Random random) {
        return Mop.append(keys.forAppend(random), values.incrementAndGet());
    }

    private List<Mop> execute(Kind kind, List<Mop> planned, Fault fault, boolean replayable,
            boolean viaRun) {
        WriteOptions options = WriteOptions.builder().replayable(replayable).build();
        SqlFunction<List<Mop>> body = c -> {
            List<Mop> result = apply(c, planned);
            if (fault == Fault.FAIL) {
                throw new IllegalStateException("this body fails on purpose after " + planned);
            }
            if (fault == Fault.CULPRIT) {
                try (var s = c.createStatement()) {
                    s.executeUpdate(END_GROUP);
                }
            }
            return result;
        };
        return switch (kind) {
            case WRITE -> db.write(options, body);
            case WRITE_ASYNC -> join(db.writeAsync(options, body));
            case EXECUTE -> {
                Mop.Append a = (Mop.Append) planned.get(0);
                db.execute(APPEND, a.key(), a.value());
                yield planned;
            }
            case BATCH -> {
                List<Statement> statements = new ArrayList<>();
                for (Mop m : planned) {
                    Mop.Append a = (Mop.Append) m;
                    statements.add(Statement.of(APPEND, a.key(), a.value()));
                }
                if (fault != Fault.NONE) {
                    statements.add(Statement.of(fault == Fault.CULPRIT ? END_GROUP : FAIL_ALONE));
                }
                db.executeBatch(statements);
                yield planned;
            }
            case TRANSACTION -> transaction(planned, fault, viaRun);
            case QUERY -> {
                Mop.Read r = (Mop.Read) planned.get(0);
                List<Long> list = new ArrayList<>();
                for (Row row : db.query(READ, r.key())) {
                    list.add(row.getLong("val"));
                }
                yield List.of(r.withValues(list));
            }
            case READ -> db.read(c -> apply(c, planned));
            case READ_ASYNC -> join(db.readAsync(c -> apply(c, planned)));
            default -> throw new IllegalArgumentException("no client for " + kind);
        };
    }

    private List<Mop> transaction(List<Mop> planned, Fault fault, boolean viaRun) {
        boolean gated = config.uncorkOutsideTransactions();
        if (gated) {
            transactionGate.readLock().lock();
        }
        try (Transaction tx = db.begin()) {
            List<Mop> result;
            if (viaRun) {
                result = tx.run(c -> apply(c, planned));
            } else {
                result = new ArrayList<>();
                for (Mop m : planned) {
                    if (m instanceof Mop.Append a) {
                        tx.execute(APPEND, a.key(), a.value());
                        result.add(a);
                    } else {
                        Mop.Read r = (Mop.Read) m;
                        List<Long> list = new ArrayList<>();
                        for (Row row : tx.query(READ, r.key())) {
                            list.add(row.getLong("val"));
                        }
                        result.add(r.withValues(list));
                    }
                }
            }
            if (fault == Fault.CULPRIT) {
                tx.execute(END_GROUP); // ends the transaction: ROLLED_BACK
            }
            if (fault == Fault.FAIL) {
                tx.rollback();
                throw new DeliberateRollback();
            }
            tx.commit();
            return result;
        } finally {
            if (gated) {
                transactionGate.readLock().unlock();
            }
        }
    }

    /** The future's value; its failure as thrown, not wrapped. */
    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** A transaction the client rolled back itself: its outcome is ROLLED_BACK by definition. */
    private static final class DeliberateRollback extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DeliberateRollback() {
            super("rolled back on purpose", null, false, false);
        }
    }

    /**
     * Runs micro-ops on a connection (the writer's inside a body, or a reader's). The append
     * statement is prepared only when there is an append: a reader refuses it even unexecuted.
     */
    static List<Mop> apply(Connection c, List<Mop> planned) throws SQLException {
        List<Mop> result = new ArrayList<>(planned.size());
        PreparedStatement append = null;
        try (PreparedStatement read = c.prepareStatement(READ)) {
            for (Mop m : planned) {
                if (m instanceof Mop.Append a) {
                    if (append == null) {
                        append = c.prepareStatement(APPEND);
                    }
                    append.setInt(1, a.key());
                    append.setLong(2, a.value());
                    append.executeUpdate();
                    result.add(a);
                } else {
                    Mop.Read r = (Mop.Read) m;
                    read.setInt(1, r.key());
                    List<Long> list = new ArrayList<>();
                    try (ResultSet rs = read.executeQuery()) {
                        while (rs.next()) {
                            list.add(rs.getLong(1));
                        }
                    }
                    result.add(r.withValues(list));
                }
            }
        } finally {
            if (append != null) {
                append.close();
            }
        }
        return result;
    }

    // ------------------------------------------------------------------ corker

    /**
     * Corks and uncorks in turns, every {@code corkEvery} completions. A cork refused because a
     * deferred uncork has not run yet (it returned at once behind an open transaction, and the
     * database stays corked until that transaction ends) is tried again at the next turn.
     */
    private void runCorker(CountDownLatch clientsDone) throws InterruptedException {
        boolean corked = false;
        int epochs = 0;
        while (awaitCompletions(clientsDone)) {
            if (!corked) {
                if (!corkControl(Kind.CORK)) {
                    continue;
                }
                corked = true;
                epochs++;
                if (config.corkEpochs() > 0 && epochs > config.corkEpochs()) {
                    return; // corked for good: the crash test kills the process like this
                }
            } else if (uncork()) {
                corked = false;
                corkCycles.incrementAndGet();
            }
        }
        if (corked && uncork()) {
            corkCycles.incrementAndGet(); // the run ends committed: the final state holds all
        }
    }

    private boolean uncork() {
        boolean gated = config.uncorkOutsideTransactions();
        if (gated) {
            transactionGate.writeLock().lock();
        }
        try {
            return corkControl(Kind.UNCORK);
        } finally {
            if (gated) {
                transactionGate.writeLock().unlock();
            }
        }
    }

    /** Waits for {@code corkEvery} completions since the last turn; false once clients are done. */
    private boolean awaitCompletions(CountDownLatch clientsDone) throws InterruptedException {
        completions.drainPermits();
        while (!completions.tryAcquire(config.corkEvery(), 50, TimeUnit.MILLISECONDS)) {
            if (clientsDone.getCount() == 0 || stop.get()) {
                return false;
            }
        }
        return clientsDone.getCount() > 0 && !stop.get();
    }

    /**
     * Runs {@code cork()} or {@code uncork()} as an operation; whether it was accepted. An uncork
     * that returned while the database is still corked was deferred behind an open transaction:
     * it commits when that transaction ends, so its return says nothing of durability, and it is
     * recorded with an unknown outcome (a shutdown before it ran rolls the corked writes back).
     */
    private boolean corkControl(Kind kind) {
        Op pending = new Op(ids.incrementAndGet(), 0, kind, List.of(), System.nanoTime(),
                Op.NEVER, Outcome.UNKNOWN);
        listener.invoked(pending);
        Op end;
        boolean deferred = false;
        try {
            if (kind == Kind.CORK) {
                db.cork();
            } else {
                db.uncork();
                deferred = db.diagnostics().writer().corked();
            }
            end = pending.completedAs(System.nanoTime(), deferred ? Outcome.UNKNOWN : Outcome.OK,
                    List.of());
        } catch (InvalidRequestException e) {
            end = pending.completedAs(System.nanoTime(), Outcome.of(e.outcome()), List.of());
            corkRefusals.incrementAndGet();
        } catch (LanesException e) {
            end = pending.completedAs(System.nanoTime(), Outcome.of(e.outcome()), List.of());
            innocentsNotOk.get(end.outcome()).incrementAndGet();
            innocentFailures.add(kind + ": " + e);
        }
        done.add(end);
        listener.completed(end);
        return end.outcome() == Outcome.OK || deferred;
    }

    // ------------------------------------------------------------------ keys

    /**
     * The active keys: a few at a time, each retired for a fresh one after {@code appendsPerKey}
     * appends, so lists stay short (reads return whole lists) while every key sees contention.
     * Guarded by {@code lock}.
     */
    private static final class Keys {
        private final ReentrantLock lock = new ReentrantLock();
        private final int[] active;
        private final int[] appends;
        private final int appendsPerKey;
        private int next;

        Keys(int count, int appendsPerKey) {
            this.active = new int[count];
            this.appends = new int[count];
            this.appendsPerKey = appendsPerKey;
            for (int i = 0; i < count; i++) {
                active[i] = ++next;
            }
        }

        int forAppend(Random random) {
            lock.lock();
            try {
                int slot = random.nextInt(active.length);
                int key = active[slot];
                if (++appends[slot] >= appendsPerKey) {
                    active[slot] = ++next;
                    appends[slot] = 0;
                }
                return key;
            } finally {
                lock.unlock();
            }
        }

        int forRead(Random random) {
            lock.lock();
            try {
                return active[random.nextInt(active.length)];
            } finally {
                lock.unlock();
            }
        }
    }

    // ------------------------------------------------------------------ virtual threads

    /**
     * JDK 21 virtual threads for code compiled with {@code --release 17}, reached reflectively;
     * on an older JDK every client is a platform thread.
     */
    static final class VirtualThreads {
        static final boolean AVAILABLE = Runtime.version().feature() >= 21;

        private VirtualThreads() {}

        static Thread unstarted(Runnable body) {
            try {
                Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
                return (Thread) Class.forName("java.lang.Thread$Builder")
                        .getMethod("unstarted", Runnable.class).invoke(builder, body);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("virtual threads unavailable", e);
            }
        }
    }
}

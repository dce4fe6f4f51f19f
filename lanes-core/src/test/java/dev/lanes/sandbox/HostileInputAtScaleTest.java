package dev.lanes.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.SqlFunction;
import dev.lanes.TestLanes;
import dev.lanes.TestRuntime;
import dev.lanes.Transaction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.guard.HostileSql;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile input at scale: 10,000 generated hostile requests through one runtime, from eight
 * client threads at once, over two databases: the generated hostile texts of the guard fuzzing
 * ({@link HostileSql}) through queries, read bodies, write bodies, statements, scripts,
 * interactive transactions and maintenance; bodies that throw exceptions and {@code Error}s;
 * callers whose thread is interrupted before or while they wait; futures cancelled at random
 * points (at once, after a random spin, once the body runs).
 *
 * <p>Afterwards: every future is done; every failure reached its caller as a typed {@link
 * LanesException} (a future the client cancelled itself reports {@link CancellationException});
 * every acknowledged write of the ledger database is there and every write that failed {@code
 * ROLLED_BACK} or {@code NOT_STARTED} is not; both databases pass {@code integrity_check} and
 * take a normal write and read; no writer is poisoned; and nothing leaked, counted before and
 * after: threads (besides the pool's, which stays within {@code maxThreads}), connections, and
 * the descriptors of the databases' files (none once the runtime closed).
 *
 * <p>The ledger database {@code ledger.db} only ever gets hostile texts where nothing of them
 * can persist (reads, and write bodies that throw after them), so that its ledger stays
 * checkable; {@code hostile.db} takes them wherever they may commit.
 *
 * <p>Seeded: {@code -Dlanes.fuzz.seed=N} replays a run (the seed is in every failure), {@code
 * -Dlanes.hostile.requests=N} sets the count (default 10,000).
 */
@Tag("slow")
@Timeout(600)
class HostileInputAtScaleTest {
    static final int REQUESTS = Integer.getInteger("lanes.hostile.requests", 10_000);
    static final int CLIENTS = 8;
    static final int MAX_THREADS = 8;
    /** Async requests a client keeps in flight before it waits for its oldest. */
    static final int WINDOW = 8;
    static final Duration WAIT = TestLanes.WAIT;

    @RegisterExtension
    final TestRuntime runtime = TestRuntime.builder().name("hostile").maxThreads(MAX_THREADS)
            .build();

    long seed;
    Lanes lanes;
    Database ledger;
    Database hostile;
    Path backupTarget;
    ScheduledExecutorService interrupter;

    /** What a ledger value's request said, so what the database must hold. */
    enum Expect { PRESENT, ABSENT, EITHER }

    final Map<String, Expect> expected = new ConcurrentHashMap<>();
    /** Failures that reached a caller untyped, or broke a rule: reported together. */
    final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<CompletableFuture<?>> allFutures = new ConcurrentLinkedQueue<>();

    /** Thrown by bodies after their work: the request must roll back whole. */
    static final class BodyEnded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BodyEnded() {
            super("the body ends here", null, false, false);
        }
    }

    @Test
    void tenThousandHostileRequestsLeaveEveryFutureDoneEveryFailureTypedAndNothingLeaked()
            throws Exception {
        Long fixed = Long.getLong("lanes.fuzz.seed");
        seed = fixed != null ? fixed : new SplittableRandom().nextLong();
        lanes = runtime.lanes();
        backupTarget = runtime.path("driver-backup.db");
        DatabaseOptions options = DatabaseOptions.builder().readers(2).build();
        ledger = runtime.openWithTable("ledger.db", options);
        hostile = runtime.openWithTable("hostile.db", options);
        for (Database db : List.of(ledger, hostile)) {
            db.executeScript("CREATE TABLE u(a); CREATE INDEX t_v ON t(v); "
                    + "CREATE VIEW w AS SELECT * FROM t; "
                    + "INSERT INTO t(v) VALUES ('one'), ('two'); INSERT INTO u VALUES (1)");
        }
        interrupter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hostile-interrupter");
            t.setDaemon(true);
            return t;
        });
        warmUp();

        Set<Thread> threadsBefore = new HashSet<>(Thread.getAllStackTraces().keySet());
        int connectionsBefore = lanes.diagnostics().openConnections();
        List<String> descriptorsBefore = descriptorsUnder(runtime.dir());
        int allDescriptorsBefore = allDescriptors();

        runClients();

        // every future is done: each was waited for (bounded) by its client or here
        List<CompletableFuture<?>> futures = new ArrayList<>(allFutures);
        for (CompletableFuture<?> f : futures) {
            settle(f);
        }
        assertThat(futures.stream().filter(f -> !f.isDone()).count())
                .as("futures not done (seed %d)", seed).isZero();
        assertThat(violations).as("rule breaks (seed %d)", seed).isEmpty();

        for (Database db : List.of(ledger, hostile)) {
            assertThat(db.diagnostics().writer().poisoned()).as("%s poisoned: %s (seed %d)",
                    db.path().getFileName(), db.diagnostics().writer().poisonCause(), seed).isFalse();
            assertThat(db.query("PRAGMA integrity_check").get(0).get(0)).isEqualTo("ok");
        }
        checkLedger();
        Sandbox.assertHealthy(ledger);
        hostile.executeScript("CREATE TABLE IF NOT EXISTS health(v); "
                + "INSERT INTO health VALUES ('after')");
        assertThat(Sandbox.scalar(hostile, "SELECT count(*) FROM health WHERE v = 'after'"))
                .isEqualTo(1);
        assertThat(backupTarget).as("the driver's backup command never ran").doesNotExist();

        interrupter.shutdownNow();
        assertThat(interrupter.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        TestLanes.awaitPoolQuiet(lanes);
        assertThat(lanes.diagnostics().liveThreads()).isLessThanOrEqualTo(MAX_THREADS);
        String workers = "hostile-worker-";
        TestLanes.awaitTrue("threads started during the run ended", () ->
                newThreads(threadsBefore, workers).isEmpty());
        // a checkpointer's connection closes two seconds after its database's last write
        try {
            TestLanes.awaitTrue("connections and descriptors after the run back to before",
                    () -> lanes.diagnostics().openConnections() <= connectionsBefore
                            && descriptorCount() <= descriptorsBefore.size());
        } catch (AssertionError e) {
            // what stayed open, and the seed that reproduces the run
            throw new AssertionError(e.getMessage() + " (seed " + seed + "): connections "
                    + connectionsBefore + " before, " + lanes.diagnostics().openConnections()
                    + " now; descriptors of the databases' files before " + descriptorsBefore
                    + ", now " + descriptorsUnder(runtime.dir()) + "; ledger "
                    + ledger.diagnostics() + "; hostile " + hostile.diagnostics(), e);
        }
        assertThat(lanes.diagnostics().openConnections()).as("connections after the run")
                .isLessThanOrEqualTo(connectionsBefore);
        List<String> descriptorsAfter = descriptorsUnder(runtime.dir());
        assertThat(descriptorsAfter.size()).as("descriptors of the databases' files: before %s, "
                + "after %s", descriptorsBefore, descriptorsAfter)
                .isLessThanOrEqualTo(descriptorsBefore.size());
        int allDescriptorsAfter = allDescriptors();

        runtime.close();
        assertThat(descriptorsUnder(runtime.dir())).as("descriptors once the runtime closed")
                .isEmpty();
        System.out.printf("hostile at scale (seed %d): %d requests, %s; threads %d before, %d "
                + "after; connections %d before; descriptors of the files %d before, %d after, "
                + "0 after close; all descriptors %d before, %d after%n", seed, REQUESTS,
                new TreeMap<>(counts), threadsBefore.size(),
                Thread.getAllStackTraces().size(), connectionsBefore, descriptorsBefore.size(),
                descriptorsAfter.size(), allDescriptorsBefore, allDescriptorsAfter);
    }

    /**
     * Opens every connection the run may use (both readers of each database, at once) and runs
     * each kind of request once, so that the counts before are of a runtime in use.
     */
    private void warmUp() throws Exception {
        for (Database db : List.of(ledger, hostile)) {
            CountDownLatch both = new CountDownLatch(2);
            List<CompletableFuture<Long>> reads = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                reads.add(db.readAsync(c -> {
                    both.countDown();
                    TestLanes.await(both, "two reads at once");
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }));
            }
            reads.forEach(TestLanes::join);
            db.execute("INSERT INTO t(v) VALUES ('warm')");
            try (Transaction tx = db.begin()) {
                tx.execute("INSERT INTO t(v) VALUES ('warm')");
                tx.commit();
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        Client warm = new Client(-1, random, new HostileSql(seed, backupTarget.toString()));
        for (Kind kind : Kind.values()) {
            warm.run(kind);
        }
        warm.drain();
        for (CompletableFuture<?> f : warm.mine) {
            settle(f);
        }
    }

    private void runClients() throws Exception {
        SplittableRandom master = new SplittableRandom(seed);
        CyclicBarrier start = new CyclicBarrier(CLIENTS);
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            Client client = new Client(i, master.split(), new HostileSql(master.nextLong(),
                    backupTarget.toString()));
            Thread t = new Thread(() -> {
                try {
                    start.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    while (next.getAndIncrement() < REQUESTS) {
                        client.run(client.nextKind());
                    }
                    client.drain();
                } catch (Throwable e) {
                    violations.add("client " + client.id + " broke off: " + stack(e));
                } finally {
                    Thread.interrupted();
                }
            }, "hostile-client-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(8));
            assertThat(t.isAlive()).as("%s ended (seed %d)", t.getName(), seed).isFalse();
        }
    }

    // ------------------------------------------------------------------ the requests

    /** The kinds of hostile request, each with its weight in the mix. */
    enum Kind {
        HOSTILE_QUERY(10), HOSTILE_READ_BODY(8), HOSTILE_WRITE_THEN_THROW(10),
        HOSTILE_WRITE(8), HOSTILE_STATEMENT(6), HOSTILE_SCRIPT(3), HOSTILE_MAINTENANCE(2),
        HOSTILE_TRANSACTION(4), NORMAL_WRITE(8), THROWING_WRITE(6), ERROR_WRITE(5),
        THROWING_READ(3), ERROR_READ(3), PRE_INTERRUPTED(6), INTERRUPTED_WHILE_WAITING(6),
        CANCELLED_WRITE(8), CANCELLED_READ(6), TRANSACTION(5);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }

        static final int TOTAL = Stream.of(values()).mapToInt(k -> k.weight).sum();
    }

    /** One client thread's requests; its state is its own thread's. */
    final class Client {
        final int id;
        final SplittableRandom random;
        final HostileSql texts;
        final ArrayDeque<Pending> window = new ArrayDeque<>();
        final List<CompletableFuture<?>> mine = new ArrayList<>();
        int serial;

        Client(int id, SplittableRandom random, HostileSql texts) {
            this.id = id;
            this.random = random;
            this.texts = texts;
        }

        Kind nextKind() {
            int n = random.nextInt(Kind.TOTAL);
            for (Kind k : Kind.values()) {
                n -= k.weight;
                if (n < 0) {
                    return k;
                }
            }
            throw new AssertionError();
        }

        String nextValue() {
            return "c" + id + "-" + serial++;
        }

        Database any() {
            return random.nextBoolean() ? ledger : hostile;
        }

        void run(Kind kind) {
            counts.computeIfAbsent(kind.name(), k -> new LongAdder()).increment();
            String sql = texts.any().sql();
            String shown = kind + " " + HostileSql.printable(sql);
            switch (kind) {
                case HOSTILE_QUERY:
                    call(shown, () -> any().query(sql));
                    break;
                case HOSTILE_READ_BODY:
                    if (random.nextBoolean()) {
                        call(shown, () -> any().read(c -> c.createStatement().execute(sql)));
                    } else {
                        track(shown, any().readAsync(c -> c.createStatement().execute(sql)),
                                null);
                    }
                    break;
                case HOSTILE_WRITE_THEN_THROW: {
                    String v = nextValue();
                    SqlFunction<Object> body = c -> {
                        insert(c, v);
                        c.createStatement().execute(sql);
                        throw new BodyEnded();
                    };
                    if (random.nextBoolean()) {
                        mustFail(shown, v, () -> ledger.write(body));
                    } else {
                        track(shown, ledger.writeAsync(body), v).mustFail = true;
                    }
                    break;
                }
                case HOSTILE_WRITE:
                    track(shown, hostile.writeAsync(c -> c.createStatement().execute(sql)), null);
                    break;
                case HOSTILE_STATEMENT:
                    call(shown, () -> hostile.execute(sql));
                    break;
                case HOSTILE_SCRIPT:
                    call(shown, () -> hostile.executeScript(sql));
                    break;
                case HOSTILE_MAINTENANCE:
                    call(shown, () -> hostile.maintenance(c -> c.createStatement().execute(sql)));
                    break;
                case HOSTILE_TRANSACTION:
                    hostileTransaction(shown, sql);
                    break;
                case NORMAL_WRITE: {
                    String v = nextValue();
                    if (random.nextBoolean()) {
                        write(shown, v, () -> ledger.execute("INSERT INTO t(v) VALUES (?)", v));
                    } else {
                        track(shown, ledger.writeAsync(c -> insert(c, v)), v);
                    }
                    break;
                }
                case THROWING_WRITE: {
                    String v = nextValue();
                    track(shown, ledger.writeAsync(c -> {
                        insert(c, v);
                        throw new IllegalStateException("the body failed");
                    }), v).mustFail = true;
                    break;
                }
                case ERROR_WRITE: {
                    String v = nextValue();
                    Error error = pickError();
                    mustFail(shown, v, () -> ledger.write(c -> {
                        insert(c, v);
                        throw error;
                    }));
                    break;
                }
                case THROWING_READ:
                    call(shown, () -> any().read(c -> {
                        c.createStatement().executeQuery("SELECT count(*) FROM t").close();
                        throw new IllegalStateException("the read failed");
                    }), true);
                    break;
                case ERROR_READ: {
                    Error error = pickError();
                    call(shown, () -> any().read(c -> {
                        throw error;
                    }), true);
                    break;
                }
                case PRE_INTERRUPTED:
                    Thread.currentThread().interrupt();
                    try {
                        interruptible(shown);
                    } finally {
                        Thread.interrupted();
                    }
                    break;
                case INTERRUPTED_WHILE_WAITING:
                    interruptedWhileWaiting(shown);
                    break;
                case CANCELLED_WRITE:
                    cancelled(shown, true, sql);
                    break;
                case CANCELLED_READ:
                    cancelled(shown, false, sql);
                    break;
                case TRANSACTION:
                    transaction(shown);
                    break;
                default:
                    throw new AssertionError(kind);
            }
        }

        Error pickError() {
            switch (random.nextInt(3)) {
                case 0:
                    return new AssertionError("a body's assertion");
                case 1:
                    return new StackOverflowError("a body's recursion");
                default:
                    return new OutOfMemoryError("a body's pretend allocation");
            }
        }

        /** A sync write or read, or a transaction, by a caller whose thread is interrupted. */
        void interruptible(String shown) {
            switch (random.nextInt(3)) {
                case 0: {
                    String v = nextValue();
                    write(shown, v, () -> ledger.write(c -> insert(c, v)));
                    break;
                }
                case 1:
                    call(shown, () -> any().query("SELECT count(*) FROM t"));
                    break;
                default:
                    transaction(shown);
                    break;
            }
        }

        /**
         * Interrupts this client's thread after a random delay, while it waits in a request;
         * the interrupt is done (or cancelled unrun) and cleared before the next request.
         */
        void interruptedWhileWaiting(String shown) {
            Thread me = Thread.currentThread();
            // Whoever takes "armed" decides: the interrupter interrupts, or the client called it
            // off. A scheduled task already running when cancelled would still interrupt, later.
            AtomicBoolean armed = new AtomicBoolean(true);
            CountDownLatch delivered = new CountDownLatch(1);
            interrupter.schedule(() -> {
                if (armed.compareAndSet(true, false)) {
                    me.interrupt();
                    delivered.countDown();
                }
            }, random.nextInt(3000), TimeUnit.MICROSECONDS);
            try {
                interruptible(shown);
            } finally {
                if (!armed.compareAndSet(true, false)) {
                    awaitDelivered(delivered);
                }
                Thread.interrupted();
            }
        }

        /** Waits until the interrupt the interrupter took on is set, whatever interrupts it. */
        private void awaitDelivered(CountDownLatch delivered) {
            while (true) {
                try {
                    if (!delivered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                        violations.add("the interrupter did not end");
                    }
                    return;
                } catch (InterruptedException e) {
                    // the interrupt it waits for arrived; wait for the latch all the same
                }
            }
        }

        /**
         * An async write (a ledger insert, or a hostile text that then throws) or read (a
         * hostile read), its future cancelled at once, after a random spin, or once its body
         * runs.
         */
        void cancelled(String shown, boolean write, String sql) {
            CountDownLatch running = new CountDownLatch(1);
            String v = write ? nextValue() : null;
            boolean hostileWrite = write && random.nextBoolean();
            CompletableFuture<?> f;
            if (write) {
                f = ledger.writeAsync(c -> {
                    running.countDown();
                    insert(c, v);
                    if (hostileWrite) {
                        c.createStatement().execute(sql);
                        throw new BodyEnded();
                    }
                    return v;
                });
            } else {
                f = any().readAsync(c -> {
                    running.countDown();
                    return c.createStatement().execute(sql);
                });
            }
            switch (random.nextInt(3)) {
                case 0:
                    break;
                case 1:
                    for (int i = random.nextInt(20_000); i > 0; i--) {
                        Thread.onSpinWait();
                    }
                    break;
                default:
                    try {
                        running.await(5, TimeUnit.MILLISECONDS); // it may never run
                    } catch (InterruptedException e) {
                        violations.add("a client was interrupted by no one of its own");
                    }
                    break;
            }
            boolean cancelled = f.cancel(random.nextBoolean());
            Pending p = track(shown, f, v);
            p.cancelled = cancelled;
            p.mustFail = hostileWrite;
        }

        void hostileTransaction(String shown, String sql) {
            // on the ledger, a hostile text in a transaction never commits
            Database db = any();
            boolean commit = db == hostile && random.nextBoolean();
            String v = db == ledger ? nextValue() : null;
            try (Transaction tx = db.begin()) {
                if (v != null) {
                    expected.put(v, Expect.ABSENT);
                    tx.execute("INSERT INTO t(v) VALUES (?)", v);
                }
                try {
                    tx.execute(sql);
                } catch (LanesException e) {
                    count("tx-refused-or-failed");
                }
                if (random.nextBoolean()) {
                    try {
                        tx.query(sql);
                    } catch (LanesException e) {
                        count("tx-refused-or-failed");
                    }
                }
                if (commit) {
                    tx.commit();
                } else if (random.nextBoolean()) {
                    tx.rollback();
                } // else closed without a commit: rolled back
            } catch (LanesException e) {
                count("failed:" + e.getClass().getSimpleName());
            } catch (Throwable t) {
                violations.add(shown + ": untyped " + stack(t));
            }
        }

        /** A ledger transaction: commits, rolls back, or is closed uncommitted. */
        void transaction(String shown) {
            String v = nextValue();
            int end = random.nextInt(4);
            expected.put(v, Expect.EITHER);
            try (Transaction tx = ledger.begin()) {
                tx.execute("INSERT INTO t(v) VALUES (?)", v);
                tx.query("SELECT count(*) FROM t WHERE v = ?", v);
                if (end <= 1) {
                    tx.commit();
                    expected.put(v, Expect.PRESENT);
                } else if (end == 2) {
                    tx.rollback();
                    expected.put(v, Expect.ABSENT);
                } else {
                    expected.put(v, Expect.ABSENT); // closed uncommitted
                }
            } catch (LanesException e) {
                count("failed:" + e.getClass().getSimpleName());
                expected.put(v, forOutcome(e.outcome()));
            } catch (Throwable t) {
                violations.add(shown + ": untyped " + stack(t));
            }
        }

        /** A sync call whose failure, if any, must be typed. */
        void call(String shown, Runnable r) {
            sync(shown, null, false, r);
        }

        void call(String shown, Runnable r, boolean bodyThrows) {
            sync(shown, null, bodyThrows, r);
        }

        /** A sync ledger write of {@code v}. */
        void write(String shown, String v, Runnable r) {
            sync(shown, v, false, r);
        }

        /** A sync ledger write of {@code v} whose body throws: it must fail, and not persist. */
        void mustFail(String shown, String v, Runnable r) {
            sync(shown, v, true, r);
        }

        /**
         * Runs a sync request: its failure must be typed, a request whose body throws must fail
         * (and a write of it not end {@code UNKNOWN}: its own savepoint rolled back), and a ledger
         * value {@code v} (null for none) is expected as the request said.
         */
        void sync(String shown, String v, boolean bodyThrows, Runnable r) {
            if (v != null) {
                expected.put(v, Expect.EITHER);
            }
            try {
                r.run();
                if (bodyThrows) {
                    violations.add(shown + ": succeeded, but its body threw");
                }
                if (v != null) {
                    expected.put(v, Expect.PRESENT);
                }
                count("ok");
            } catch (LanesException e) {
                if (bodyThrows && v != null && e.outcome() == WriteOutcome.UNKNOWN) {
                    violations.add(shown + ": a body that threw ended UNKNOWN: " + e);
                }
                if (v != null) {
                    expected.put(v, forOutcome(e.outcome()));
                }
                count("failed:" + e.getClass().getSimpleName());
            } catch (Throwable t) {
                violations.add(shown + ": untyped " + stack(t));
            }
        }

        Pending track(String shown, CompletableFuture<?> f, String v) {
            if (v != null) {
                expected.put(v, Expect.EITHER);
            }
            Pending p = new Pending(shown, f, v);
            mine.add(f);
            allFutures.add(f);
            window.add(p);
            if (window.size() > WINDOW) {
                window.poll().settle();
            }
            return p;
        }

        void drain() {
            while (!window.isEmpty()) {
                window.poll().settle();
            }
        }
    }

    /** An async request a client waits for later. */
    final class Pending {
        final String shown;
        final CompletableFuture<?> future;
        final String value;
        boolean cancelled;
        boolean mustFail;

        Pending(String shown, CompletableFuture<?> future, String value) {
            this.shown = shown;
            this.future = future;
            this.value = value;
        }

        void settle() {
            Throwable failure = HostileInputAtScaleTest.this.settle(future);
            if (failure == null) {
                if (mustFail) {
                    violations.add(shown + ": succeeded, but its body threw");
                }
                record(Expect.PRESENT, "ok");
            } else if (failure instanceof CancellationException) {
                if (!cancelled) {
                    violations.add(shown + ": cancelled, but not by its client");
                }
                record(Expect.EITHER, "cancelled");
            } else if (failure instanceof LanesException) {
                LanesException e = (LanesException) failure;
                if (mustFail && e.outcome() == WriteOutcome.UNKNOWN) {
                    violations.add(shown + ": a body that threw ended UNKNOWN: " + e);
                }
                record(forOutcome(e.outcome()), "failed:" + e.getClass().getSimpleName());
            } else {
                violations.add(shown + ": untyped " + stack(failure));
            }
        }

        private void record(Expect e, String what) {
            if (value != null) {
                expected.put(value, e);
            }
            count(what);
        }
    }

    // ------------------------------------------------------------------ checks

    /**
     * Waits (bounded) for a future to end; its failure, null when it succeeded. A future still
     * running after {@link #WAIT} is a violation.
     */
    Throwable settle(CompletableFuture<?> f) {
        try {
            f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (CancellationException e) {
            return e;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            violations.add("a future was not done within " + WAIT);
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            violations.add("interrupted while waiting for a future");
            return e;
        }
    }

    private void checkLedger() {
        Set<String> present = new HashSet<>();
        ledger.query(r -> r.get(0).toString(), "SELECT v FROM t WHERE v LIKE 'c%'")
                .forEach(present::add);
        List<String> lost = new ArrayList<>();
        List<String> ghosts = new ArrayList<>();
        for (Map.Entry<String, Expect> e : expected.entrySet()) {
            if (e.getValue() == Expect.PRESENT && !present.contains(e.getKey())) {
                lost.add(e.getKey());
            } else if (e.getValue() == Expect.ABSENT && present.contains(e.getKey())) {
                ghosts.add(e.getKey());
            }
        }
        Set<String> unknown = new HashSet<>(present);
        unknown.removeAll(expected.keySet());
        assertThat(lost).as("acknowledged writes missing (seed %d)", seed).isEmpty();
        assertThat(ghosts).as("ROLLED_BACK/NOT_STARTED writes present (seed %d)", seed)
                .isEmpty();
        assertThat(unknown).as("values nobody wrote (seed %d)", seed).isEmpty();
        assertThat(expected.values().stream().filter(e -> e == Expect.PRESENT).count())
                .as("acknowledged ledger writes").isPositive();
        assertThat(expected.values().stream().filter(e -> e == Expect.ABSENT).count())
                .as("failed ledger writes").isPositive();
    }

    static Expect forOutcome(WriteOutcome outcome) {
        return outcome == WriteOutcome.UNKNOWN ? Expect.EITHER : Expect.ABSENT;
    }

    private static String insert(java.sql.Connection c, String v) throws java.sql.SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
            s.setString(1, v);
            s.executeUpdate();
        }
        return v;
    }

    void count(String what) {
        counts.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    /** Threads alive now that were not before, besides the pool's workers. */
    private static List<String> newThreads(Set<Thread> before, String workers) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive()
                        && !t.getName().startsWith(workers))
                .map(t -> t.getName() + " (" + t.getState() + ")")
                .collect(Collectors.toList());
    }

    /** The process's open descriptors that lead to a file under {@code dir}. */
    /** {@link #descriptorsUnder} of the runtime's folder, counted; for a bounded wait. */
    private int descriptorCount() {
        try {
            return descriptorsUnder(runtime.dir()).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> descriptorsUnder(Path dir) throws IOException {
        Path fds = Path.of("/proc/self/fd");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(fds),
                "counting descriptors needs /proc/self/fd (Linux)");
        String root = dir.toRealPath().toString();
        List<String> found = new ArrayList<>();
        try (Stream<Path> list = Files.list(fds)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(root)) {
                        found.add(target.substring(root.length()));
                    }
                } catch (IOException e) {
                    // closed between the listing and the read: not open any more
                }
            }
        }
        found.sort(null);
        return found;
    }

    static int allDescriptors() throws IOException {
        try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
            return (int) list.count();
        }
    }

    private static String stack(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        String s = w.toString();
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }
}

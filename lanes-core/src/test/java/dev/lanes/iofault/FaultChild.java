package dev.lanes.iofault;

import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import dev.lanes.Statement;
import dev.lanes.Synchronous;
import dev.lanes.Transaction;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The child JVM of {@link IoFaultOutcomesTest}, run under {@code fiu-run -x}: opens a database
 * with Lanes (public API only), warms up, then writes uniquely identifiable requests from seven
 * threads until the test stops or kills it, and tells the test what every caller saw through an
 * {@link OutcomeChannel}. When the writer poisons itself, the workers make a few more requests
 * (none may be acknowledged), then a supervisor closes the database and opens it again, as an
 * application would, and the workload goes on with the new generation: one round sees several
 * poisonings, reopens under faults, and recovery.
 *
 * <p>Arguments: database path, {@link Synchronous} level, channel file. Requests of the warm-up
 * are tagged phase 0, the workload's phase 1. Commands on stdin: {@code phase N} (tags later
 * requests; the test sends 2 once the faults are off), {@code quiesce} (every workload thread
 * finishes its request and parks, no reopen runs; {@code E event=quiet} then says nothing
 * touches the file), {@code stop} (stop the workload, close cleanly, exit 0). End of stdin (the
 * test died) halts the JVM, so no child outlives its test.
 *
 * <p>Every row of table {@code req} says which request wrote it and how many rows that request
 * has ({@code id, part, parts}), so the test can tell a half-applied request from the file alone.
 *
 * <p>Lines on the channel, {@code key=value} separated by spaces:
 * <ul>
 *   <li>{@code R id kind parts sec gen phase start end result [class code outcome poisoned] [step
 *       close]}: one request as its caller saw it: {@code result=ok} (acknowledged), {@code fail}
 *       (a {@link LanesException}: its class, {@code code()}, {@code outcome()}, and whether {@code
 *       diagnostics().writer().poisoned()} was set right after), or {@code alien} (anything else: a
 *       defect). {@code start} and {@code end} come from one counter shared by every thread: a
 *       request whose start is above another's end was called after that one returned. {@code
 *       sec} names the cork section a write belongs to (0: none), {@code gen} the database
 *       generation; {@code step} and {@code close} are an interactive transaction's failing step
 *       and the outcome of its {@code close()}, when that failed.
 *   <li>{@code S sec gen event start end result ...}: a cork section's {@code cork()} and {@code
 *       uncork()}, and {@code event=uncork-begin} stored just before {@code uncork()} is called.
 *   <li>{@code E event ...}: {@code ready}, {@code phase}, {@code poisoned} (with the cause),
 *       {@code closed-poisoned}, {@code reopened}, {@code reopen-failed}, {@code quiet}, {@code
 *       stopped}, {@code close-failed}, {@code closed}, {@code stuck}.
 * </ul>
 *
 * <p>Concurrency: a cork holds every later write of the database in one transaction, so a cork
 * section holds {@link #corkGate}'s write lock and every request holds its read lock (a section's
 * own members take it under the write lock, which the lock allows): the section's writes are
 * exactly its own, and its members' outcomes follow from its {@code uncork()}. {@link #db} and
 * {@link #gen} change only under {@link #gate}, by the supervisor, while every worker is parked
 * in that generation ({@link #parkedNow()} is {@link #WORKERS}); a running worker therefore reads
 * one generation from
 * the top of an iteration to its end. {@link #gate}'s condition is signalled on every change of
 * {@link #parked}, {@link #poisonedGen}, {@link #gen}, quiesce and stop.
 */
public final class FaultChild {
    static final String SCHEMA = "CREATE TABLE IF NOT EXISTS req(id INTEGER NOT NULL, "
            + "part INTEGER NOT NULL, parts INTEGER NOT NULL, kind TEXT NOT NULL, payload BLOB, "
            + "PRIMARY KEY (id, part))";
    static final String INSERT = "INSERT INTO req(id, part, parts, kind, payload) "
            + "VALUES (?, ?, ?, ?, randomblob(?))";
    static final int SMALL = 64;
    /**
     * A large request writes {@link #LARGE_PARTS} rows of this size: 3 MiB, more than SQLite's
     * default 2 MiB page cache, so its transaction spills pages to the WAL before COMMIT and a
     * failing pwrite hits a statement, not only the commit.
     */
    static final int LARGE = 256 << 10;
    static final int LARGE_PARTS = 12;
    /** Requests a thread still makes once the writer is poisoned, before it parks. */
    static final int AFTER_POISON = 5;
    static final int BURST = 16;
    static final int CORK_MEMBERS = 6;
    static final int WORKERS = 7;
    /** Reopen attempts recorded per generation; later ones still run, unrecorded. */
    static final int RECORDED_REOPEN_FAILURES = 20;
    static final long REOPEN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Lanes lanes;
    private final Path path;
    private final DatabaseOptions options;
    private final OutcomeChannel out;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong clock = new AtomicLong();
    private final AtomicLong sections = new AtomicLong();
    private final CountDownLatch stop = new CountDownLatch(1);
    private final ReentrantReadWriteLock corkGate = new ReentrantReadWriteLock();
    private volatile int phase;
    /** Set by the test's {@code quiesce}: every worker finishes its request and parks for good. */
    private volatile boolean quiesce;

    private final ReentrantLock gate = new ReentrantLock();
    private final Condition changed = gate.newCondition();
    /** The database of the current generation; replaced by the supervisor only, under gate. */
    private volatile Database db;
    private volatile int gen;
    /** The latest generation whose writer a caller saw poisoned. */
    private volatile int poisonedGen = -1;
    /**
     * Workers parked in generation {@link #parkedGen}; guarded by gate. Counted per generation:
     * a worker parked in an older one, signalled but not yet awake, must not count towards the
     * next reopen (it counted so, and then ran a request on the database being closed).
     */
    private int parked;
    private int parkedGen; // guarded by gate
    private boolean supervising; // guarded by gate

    private FaultChild(Lanes lanes, Path path, DatabaseOptions options, OutcomeChannel out) {
        this.lanes = lanes;
        this.path = path;
        this.options = options;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        Synchronous level = Synchronous.valueOf(args[1]);
        OutcomeChannel out = OutcomeChannel.create(Path.of(args[2]));
        Lanes lanes = Lanes.builder().name("fiu").maxThreads(8).build();
        DatabaseOptions options = DatabaseOptions.builder().synchronous(level).readers(2).build();
        FaultChild child = new FaultChild(lanes, path, options, out);
        child.db = lanes.open(path, options);
        child.db.execute(SCHEMA);
        child.warmUp();
        out.append("E event=ready");
        // Phase 0 is the warm-up alone: the test switches faults on only after "ready", so a
        // phase-0 failure is never a fault's doing. The test's "phase 1" arrives after the
        // workers started; they tag their requests 1 from the start.
        child.phase = 1;
        List<Thread> threads = child.startWorkers();
        BufferedReader commands = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command; (command = commands.readLine()) != null; ) {
            if (command.startsWith("phase ")) {
                child.phase = Integer.parseInt(command.substring(6).trim());
                out.append("E event=phase n=" + child.phase);
            } else if (command.equals("quiesce")) {
                out.append(child.quiesce() ? "E event=quiet" : "E event=stuck thread=quiesce");
            } else if (command.equals("stop")) {
                System.exit(child.stopAndClose(threads));
            }
        }
        Runtime.getRuntime().halt(3); // the test is gone: leave nothing behind
    }

    /**
     * Every kind of request a few times, before any fault is on; all of them must commit. The
     * large body comes first: its commit crosses the autocheckpoint threshold, and a checkpoint
     * that copied the whole WAL makes the next commit restart the WAL, which at FULL syncs the
     * new WAL header before it writes any frame. The small writes after it leave frames in the
     * WAL, so that the first commits under the faults append to it, as commits usually do.
     */
    private void warmUp() {
        Database d = db;
        body(d, "body", LARGE_PARTS, LARGE);
        for (int round = 0; round < 4; round++) {
            exec(d, "exec");
            body(d, "body", 2 + round, SMALL);
            batch(d, 2 + round % 3);
            transaction(d);
            burst(d, 8);
            corkSection(d);
        }
    }

    private List<Thread> startWorkers() {
        List<Thread> threads = new ArrayList<>();
        threads.add(worker("exec-1", (d, n) -> exec(d, "exec")));
        threads.add(worker("exec-2", (d, n) -> exec(d, "exec")));
        threads.add(worker("body", (d, n) -> {
            if (n % 8 == 7) {
                body(d, "body", LARGE_PARTS, LARGE);
            } else {
                body(d, "body", 2 + (int) (n % 4), SMALL);
            }
        }));
        threads.add(worker("batch", (d, n) -> batch(d, 2 + (int) (n % 3))));
        threads.add(worker("tx", (d, n) -> transaction(d)));
        threads.add(worker("async", (d, n) -> burst(d, BURST)));
        threads.add(worker("cork", (d, n) -> {
            if (n % 20 == 19) {
                corkSection(d);
            } else {
                exec(d, "exec");
            }
        }));
        if (threads.size() != WORKERS) {
            throw new IllegalStateException(threads.size() + " workers, not " + WORKERS);
        }
        Thread supervisor = new Thread(this::supervise, "fiu-supervisor");
        supervisor.setDaemon(true);
        threads.add(supervisor);
        threads.forEach(Thread::start);
        return threads;
    }

    private interface Step {
        void run(Database d, long n);
    }

    // ------------------------------------------------------------------ generations

    /**
     * A workload thread: runs {@code step} on the current generation's database until stop. Once
     * a caller saw that generation's writer poisoned, it makes {@link #AFTER_POISON} more requests
     * (enough to show that nothing is acknowledged after it), then parks until the supervisor has
     * reopened the database. After {@code quiesce} it parks for good.
     */
    private Thread worker(String name, Step step) {
        Thread t = new Thread(() -> {
            int myGen = -1;
            int afterPoison = 0;
            for (long n = 0; stop.getCount() > 0; n++) {
                int g = gen;
                Database d = db; // stable while this thread runs: swapped only when all park
                if (g != myGen) {
                    myGen = g;
                    afterPoison = 0;
                }
                if (quiesce || (poisonedGen == g && afterPoison++ >= AFTER_POISON)) {
                    park(g);
                    continue;
                }
                step.run(d, n);
            }
        }, "fiu-" + name);
        t.setDaemon(true);
        return t;
    }

    private void park(int g) {
        gate.lock();
        try {
            int countedIn = countParked();
            while (stop.getCount() > 0 && (quiesce || gen == g)) {
                changed.awaitUninterruptibly();
                if (countedIn != gen && stop.getCount() > 0 && (quiesce || gen == g)) {
                    countedIn = countParked(); // parked on (quiesce) into a new generation
                }
            }
            if (countedIn == parkedGen) {
                parked--;
            }
        } finally {
            gate.unlock();
        }
    }

    /** Counts the calling worker as parked in the current generation; guarded by gate. */
    private int countParked() {
        if (parkedGen != gen) {
            parkedGen = gen;
            parked = 0;
        }
        parked++;
        changed.signalAll();
        return gen;
    }

    /** The workers parked in the current generation; guarded by gate. */
    private int parkedNow() {
        return parkedGen == gen ? parked : 0;
    }

    /**
     * Once a generation's writer is poisoned and every worker parked: closes that database and
     * opens the file again (retrying while the faults make the open fail), then lets the workers
     * go on with the new generation. Lanes never restarts a poisoned writer by itself: reopening
     * is the application's move, and the first thing to run under the faults again.
     */
    private void supervise() {
        while (true) {
            int g;
            gate.lock();
            try {
                while (stop.getCount() > 0
                        && (quiesce || poisonedGen != gen || parkedNow() < WORKERS)) {
                    changed.awaitUninterruptibly();
                }
                if (stop.getCount() == 0) {
                    return;
                }
                supervising = true;
                g = gen;
            } finally {
                gate.unlock();
            }
            Database next = reopen(g);
            gate.lock();
            try {
                if (next != null) {
                    db = next;
                    gen = g + 1;
                }
                supervising = false;
                changed.signalAll();
            } finally {
                gate.unlock();
            }
            if (next == null) {
                return; // stop or quiesce came first
            }
        }
    }

    private Database reopen(int g) {
        try {
            db.close();
            out.append("E event=closed-poisoned gen=" + g + " result=ok");
        } catch (Throwable t) {
            out.append("E event=closed-poisoned gen=" + g + " " + failure(t));
        }
        for (int attempt = 1; stop.getCount() > 0 && !quiesce; attempt++) {
            Database d = null;
            try {
                d = lanes.open(path, options);
                d.whenReady().get(30, TimeUnit.SECONDS);
                out.append("E event=reopened gen=" + (g + 1) + " attempts=" + attempt);
                return d;
            } catch (Throwable t) {
                Throwable cause = t instanceof ExecutionException && t.getCause() != null
                        ? t.getCause() : t;
                if (attempt <= RECORDED_REOPEN_FAILURES) {
                    out.append("E event=reopen-failed gen=" + (g + 1) + " attempt=" + attempt
                            + " " + failure(cause));
                }
                if (d != null) {
                    try {
                        d.close(); // a DEAD database stays registered until closed
                    } catch (Throwable ignored) {
                        // its failure was recorded above
                    }
                }
                LockSupport.parkNanos(REOPEN_BACKOFF_NANOS); // a retry's backoff, not ordering
            }
        }
        return null;
    }

    /** Parks every worker for good and waits until none runs a request and no reopen runs. */
    private boolean quiesce() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        gate.lock();
        try {
            quiesce = true;
            changed.signalAll();
            while (parkedNow() < WORKERS || supervising) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            gate.unlock();
        }
    }

    private int stopAndClose(List<Thread> threads) throws InterruptedException {
        gate.lock();
        try {
            stop.countDown();
            changed.signalAll();
        } finally {
            gate.unlock();
        }
        int status = 0;
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            if (t.isAlive()) {
                out.append("E event=stuck thread=" + t.getName());
                StringBuilder dump = new StringBuilder("stuck: " + t.getName() + "\n");
                for (StackTraceElement e : t.getStackTrace()) {
                    dump.append("\tat ").append(e).append('\n');
                }
                System.err.print(dump);
                status = 5;
            }
        }
        out.append("E event=stopped gen=" + gen);
        try {
            db.close();
        } catch (Throwable t) {
            out.append("E event=close-failed " + failure(t));
            t.printStackTrace();
        }
        lanes.close();
        out.append("E event=closed");
        return status;
    }

    // ------------------------------------------------------------------ requests

    private interface Request {
        void run(long id) throws Exception;
    }

    /** Runs one request on {@code d} and records what its caller saw. */
    private void request(Database d, String kind, int parts, long section, Request request) {
        long id = ids.incrementAndGet();
        int ph = phase;
        long start = clock.incrementAndGet();
        Throwable failure = null;
        corkGate.readLock().lock();
        try {
            request.run(id);
        } catch (Throwable t) {
            failure = t;
        } finally {
            corkGate.readLock().unlock();
        }
        String result = result(d, failure);
        long end = clock.incrementAndGet();
        out.append(head(id, kind, parts, section, ph, start, end) + " " + result);
    }

    private void exec(Database d, String kind) {
        exec(d, kind, 0);
    }

    private void exec(Database d, String kind, long section) {
        request(d, kind, 1, section, id -> d.execute(INSERT, id, 1, 1, kind, SMALL));
    }

    private void body(Database d, String kind, int parts, int size) {
        body(d, kind, parts, size, 0);
    }

    private void body(Database d, String kind, int parts, int size, long section) {
        request(d, kind, parts, section, id -> d.write(c -> insertRows(c, id, parts, kind, size)));
    }

    private static Void insertRows(Connection c, long id, int parts, String kind, int size)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(INSERT)) {
            for (int part = 1; part <= parts; part++) {
                s.setLong(1, id);
                s.setInt(2, part);
                s.setInt(3, parts);
                s.setString(4, kind);
                s.setInt(5, size);
                s.executeUpdate();
            }
        }
        return null;
    }

    private void batch(Database d, int parts) {
        request(d, "batch", parts, 0, id -> {
            List<Statement> statements = new ArrayList<>();
            for (int part = 1; part <= parts; part++) {
                statements.add(Statement.of(INSERT, id, part, parts, "batch", SMALL));
            }
            d.executeBatch(statements);
        });
    }

    /**
     * An interactive transaction of two rows with a read of its own write between them. Records
     * the step that failed and the outcome of {@code close()} (its rollback), when that failed.
     */
    private void transaction(Database d) {
        long id = ids.incrementAndGet();
        int ph = phase;
        long start = clock.incrementAndGet();
        String step = "begin";
        Throwable failure = null;
        Throwable closeFailure = null;
        Transaction tx = null;
        corkGate.readLock().lock();
        try {
            tx = d.begin();
            step = "exec1";
            tx.execute(INSERT, id, 1, 2, "tx", SMALL);
            step = "query";
            long seen = tx.query("SELECT count(*) AS n FROM req WHERE id = ?", id).get(0)
                    .getLong("n");
            if (seen != 1) {
                throw new IllegalStateException("the transaction sees " + seen
                        + " rows of its own first insert");
            }
            step = "exec2";
            tx.execute(INSERT, id, 2, 2, "tx", SMALL);
            step = "commit";
            tx.commit();
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (tx != null) {
                try {
                    tx.close();
                } catch (Throwable t) {
                    closeFailure = t;
                }
            }
            corkGate.readLock().unlock();
        }
        String result = result(d, failure);
        long end = clock.incrementAndGet();
        String line = head(id, "tx", 2, 0, ph, start, end) + " " + result;
        if (failure != null) {
            line += " step=" + step;
        }
        if (closeFailure != null) {
            line += " close=" + (closeFailure instanceof LanesException
                    ? ((LanesException) closeFailure).outcome() : "alien");
        }
        out.append(line);
    }

    /** {@code size} asynchronous writes queued at once, so they share commit groups. */
    private void burst(Database d, int size) {
        corkGate.readLock().lock();
        try {
            queueAndJoin(d, size);
        } finally {
            corkGate.readLock().unlock();
        }
    }

    private void queueAndJoin(Database d, int size) {
        long[] id = new long[size];
        long[] start = new long[size];
        int[] parts = new int[size];
        int ph = phase;
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        Throwable[] refused = new Throwable[size];
        for (int i = 0; i < size; i++) {
            long rid = ids.incrementAndGet();
            int rparts = 1 + i % 2;
            id[i] = rid;
            parts[i] = rparts;
            start[i] = clock.incrementAndGet();
            try {
                futures.add(d.writeAsync(c -> insertRows(c, rid, rparts, "async", SMALL)));
            } catch (Throwable t) {
                futures.add(null);
                refused[i] = t;
            }
        }
        for (int i = 0; i < size; i++) {
            Throwable failure = refused[i];
            if (failure == null) {
                try {
                    futures.get(i).join();
                } catch (CompletionException e) {
                    failure = e.getCause() == null ? e : e.getCause();
                } catch (Throwable t) {
                    failure = t;
                }
            }
            String result = result(d, failure);
            long end = clock.incrementAndGet();
            out.append(head(id[i], "async", parts[i], 0, ph, start[i], end) + " " + result);
        }
    }

    /**
     * {@code cork()}, {@link #CORK_MEMBERS} writes (in every third section one of them large
     * enough to spill), {@code uncork()}; alone, under the gate's write lock.
     */
    private void corkSection(Database d) {
        corkGate.writeLock().lock();
        try {
            long sec = sections.incrementAndGet();
            int ph = phase;
            if (!sectionCall(d, sec, "cork", ph, d::cork)) {
                return;
            }
            for (int m = 0; m < CORK_MEMBERS; m++) {
                if (m == 3 && sec % 3 == 0) {
                    body(d, "cork-body", LARGE_PARTS, LARGE, sec);
                } else if (m % 2 == 0) {
                    exec(d, "cork-exec", sec);
                } else {
                    body(d, "cork-body", 2, SMALL, sec);
                }
            }
            out.append("S sec=" + sec + " gen=" + gen + " event=uncork-begin start="
                    + clock.incrementAndGet());
            sectionCall(d, sec, "uncork", ph, d::uncork);
        } finally {
            corkGate.writeLock().unlock();
        }
    }

    /** Runs a section's {@code cork()} or {@code uncork()} and records it; true when it returned. */
    private boolean sectionCall(Database d, long sec, String event, int ph, Runnable call) {
        long start = clock.incrementAndGet();
        Throwable failure = null;
        try {
            call.run();
        } catch (Throwable t) {
            failure = t;
        }
        String result = result(d, failure);
        out.append("S sec=" + sec + " gen=" + gen + " event=" + event + " phase=" + ph + " start="
                + start + " end=" + clock.incrementAndGet() + " " + result);
        return failure == null;
    }

    // ------------------------------------------------------------------ lines

    private String head(long id, String kind, int parts, long section, int phase, long start,
            long end) {
        return "R id=" + id + " kind=" + kind + " parts=" + parts + " sec=" + section + " gen="
                + gen + " phase=" + phase + " start=" + start + " end=" + end;
    }

    /**
     * The result fields of a request on {@code d} that returned ({@code failure == null}) or
     * threw; a caller that sees the writer poisoned lets the supervisor know. Called before the
     * request's {@code end} is counted: the ledger holds every request called after that {@code
     * end} to a poisoning seen here, so the poisoning must precede it. Sampled after {@code end}
     * (as before), a caller descheduled or waiting in {@code diagnostics()} saw a poisoning that
     * came after requests which were rightly acknowledged, and the ledger called them violations.
     */
    private String result(Database d, Throwable failure) {
        if (failure == null) {
            return "result=ok";
        }
        if (!(failure instanceof LanesException)) {
            System.err.println("a caller got a non-LanesException:");
            failure.printStackTrace();
            return "result=alien class=" + failure.getClass().getName();
        }
        DatabaseDiagnostics diagnostics = d.diagnostics();
        boolean poisoned = diagnostics.writer().poisoned();
        if (poisoned && poisonedGen != gen) {
            gate.lock();
            try {
                if (poisonedGen != gen) {
                    poisonedGen = gen;
                    String cause = diagnostics.writer().poisonCause().orElse("none").replaceAll("\\s+", "_");
                    out.append("E event=poisoned gen=" + gen + " cause="
                            + cause.substring(0, Math.min(cause.length(), 400)));
                    changed.signalAll();
                }
            } finally {
                gate.unlock();
            }
        }
        return failure(failure) + " poisoned=" + poisoned;
    }

    private static String failure(Throwable t) {
        if (!(t instanceof LanesException)) {
            return "result=alien class=" + t.getClass().getName();
        }
        LanesException e = (LanesException) t;
        return "result=fail class=" + e.getClass().getSimpleName() + " code=" + e.code()
                + " outcome=" + e.outcome();
    }
}

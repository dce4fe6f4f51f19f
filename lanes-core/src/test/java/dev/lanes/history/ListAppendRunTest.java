package dev.lanes.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.history.ListAppendWorkload.Config;
import dev.lanes.history.ListAppendWorkload.Stats;
import dev.lanes.history.Op.Kind;
import dev.lanes.history.Op.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The list-append workload against real Lanes, every client kind at once on platform and virtual
 * threads, and the checker over what they observed: strict serializability of writes, snapshot
 * reads that include every acknowledged append, and honest outcomes, under small and large commit
 * groups, throwing bodies and group-ending failures, cork cycles, and connection-budget
 * evictions. The final state is read from the file after the database closed.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListAppendRunTest {
    static final long RUN_SECONDS = 120;

    @TempDir Path dir;

    /** A finished run: its history and what the workload counted. */
    record Run(History history, Stats stats, long replays) {}

    @ParameterizedTest(name = "maxGroupSize {0}")
    @ValueSource(ints = {1, 512})
    void everyClientKindAtOnceIsStrictlySerializable(int maxGroupSize) throws Exception {
        Run run = run("groups-" + maxGroupSize, options(maxGroupSize), Config.defaults());

        assertConsistent(run);
        assertThat(run.stats().innocentsFailed()).as("%s", run.stats().innocentFailures()).isZero();
        assertKindsSucceeded(run.history(), EnumSet.of(Kind.WRITE, Kind.WRITE_ASYNC, Kind.EXECUTE,
                Kind.BATCH, Kind.TRANSACTION, Kind.QUERY, Kind.READ, Kind.READ_ASYNC));
        if (ListAppendWorkload.VirtualThreads.AVAILABLE) {
            assertThat(run.stats().virtualClients()).as("virtual-thread clients").isPositive();
        }
    }

    @ParameterizedTest(name = "maxGroupSize {0}")
    @ValueSource(ints = {2, 512})
    void failedRequestsVanishAndInnocentsOfEndedGroupsCommitExactlyOnce(int maxGroupSize)
            throws Exception {
        Config config = Config.defaults().withFaults(0.08, 0.04, 0.1).withSeed(maxGroupSize);

        Run run = run("faults-" + maxGroupSize, options(maxGroupSize), config);

        assertConsistent(run);
        assertThat(run.stats().meantToFailButOk()).as("failures meant that reported success")
                .isZero();
        // Replay is bounded (once): an innocent whose replayed group was ended again by another
        // culprit is ROLLED_BACK, honestly, and the checker holds it absent. Nothing else.
        assertThat(run.stats().innocentsNotOk()).as("replayable innocents that did not commit: %s",
                run.stats().innocentFailures()).doesNotContainKeys(Outcome.NOT_STARTED,
                Outcome.UNKNOWN);
        assertThat(run.stats().innocentFailures())
                .allSatisfy(f -> assertThat(f).contains("ended the shared transaction"));
        assertThat(count(run.history(), Outcome.ROLLED_BACK)).as("rolled back operations")
                .isPositive();
        assertThat(run.replays()).as("groups ended by a culprit and replayed").isPositive();
    }

    @Test
    void corkCyclesStayStrictlySerializableAndReadsWhileCorkedSeeCorkedWrites() throws Exception {
        Config config = Config.defaults().withCork(60, 0, false).withSeed(3);

        Run run = run("cork", options(64), config);

        assertConsistent(run);
        assertThat(run.stats().innocentsFailed()).as("%s", run.stats().innocentFailures()).isZero();
        assertThat(run.stats().corkCycles()).as("cork cycles").isGreaterThanOrEqualTo(5);
    }

    @Test
    void evictionsByTheConnectionBudgetKeepEveryDatabaseConsistent() throws Exception {
        int databases = 4;
        int cap = 2;
        Config config = Config.defaults().withClients(4, 150);
        List<Run> runs = new ArrayList<>();
        long samples = 0;
        long disconnected = 0;
        long mostOpen = 0;
        try (Lanes lanes = Lanes.builder().name("history-budget").maxThreads(8)
                .maxOpenConnections(cap).build()) {
            List<CompletableFuture<Run>> futures = new ArrayList<>();
            ExecutorService starters = Executors.newFixedThreadPool(databases);
            try {
                for (int d = 0; d < databases; d++) {
                    String name = "budget-" + d;
                    Config c = config.withSeed(100 + d);
                    futures.add(CompletableFuture.supplyAsync(() -> runOn(lanes, name,
                            options(16), c), starters));
                }
                // Coverage, not ordering: while the runs go on, how often a database had no
                // connection at all (SQLite removes the -wal file when its last one closes).
                CompletableFuture<Void> all = CompletableFuture.allOf(
                        futures.toArray(new CompletableFuture<?>[0]));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_SECONDS);
                while (!all.isDone() && System.nanoTime() < deadline) {
                    for (int d = 0; d < databases; d++) {
                        samples++;
                        if (!Files.exists(dir.resolve("budget-" + d + ".db-wal"))) {
                            disconnected++;
                        }
                    }
                    mostOpen = Math.max(mostOpen, lanes.diagnostics().openConnections());
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                for (CompletableFuture<Run> f : futures) {
                    runs.add(f.get(RUN_SECONDS, TimeUnit.SECONDS));
                }
            } finally {
                starters.shutdownNow();
            }
        }
        for (Run run : runs) {
            assertConsistent(run);
            assertThat(run.stats().innocentsFailed()).as("%s", run.stats().innocentFailures())
                    .isZero();
        }
        assertThat(disconnected).as("samples that found a database with every connection closed "
                + "underneath it (of %d; at most %d connections open, cap %d)", samples, mostOpen,
                cap).isPositive();
    }

    /**
     * {@code close()} drains what was accepted; {@code shutdownNow()} fails what is queued
     * NOT_STARTED and lets only the running turn finish. Either way, mid-run, every outcome is
     * honest: what failed is absent, what returned is present. {@code shutdownNow()} while corked
     * rolls the held writes back, as a crash would lose them, so that history is checked as one
     * that ended in a crash.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"close", "shutdownNow", "close-corked", "shutdownNow-corked"})
    void closingMidRunKeepsEveryOutcomeHonest(String how) throws Exception {
        boolean corked = how.endsWith("-corked");
        boolean now = how.startsWith("shutdownNow");
        Config config = Config.defaults().withClients(16, 1_000).withSeed(how.hashCode());
        if (corked) {
            config = config.withCork(50, 0, false);
        }
        Path file = dir.resolve("closing-" + how + ".db");
        CountDownLatch midRun = new CountDownLatch(800);
        ListAppendWorkload workload;
        Stats stats;
        try (Lanes lanes = Lanes.builder().name("history-closing").maxThreads(8).build()) {
            Database db = lanes.open(file, options(64));
            ListAppendWorkload.createSchema(db);
            workload = new ListAppendWorkload(db, config, new ListAppendWorkload.Listener() {
                @Override
                public void invoked(Op pending) {}

                @Override
                public void completed(Op done) {
                    midRun.countDown();
                }
            });
            ListAppendWorkload running = workload;
            CompletableFuture<Stats> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return running.run(RUN_SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(midRun.await(RUN_SECONDS, TimeUnit.SECONDS)).as("800 completions").isTrue();
            if (now) {
                db.shutdownNow();
            } else {
                db.close();
            }
            workload.stop();
            stats = run.get(RUN_SECONDS, TimeUnit.SECONDS);
        }
        History history = new History(workload.ops(), finalStateOf(file), now && corked);
        Run run = new Run(history, stats, 0);

        assertConsistent(run);
        assertThat(count(history, Outcome.NOT_STARTED)).as("requests refused once closing")
                .isPositive();
        assertThat(count(history, Outcome.OK)).as("requests that returned").isGreaterThan(700);
    }

    // ------------------------------------------------------------------ running and checking

    static DatabaseOptions options(int maxGroupSize) {
        return DatabaseOptions.builder().maxGroupSize(maxGroupSize).writeQueueCapacity(1024)
                .readers(4).build();
    }

    private Run run(String name, DatabaseOptions options, Config config) throws Exception {
        try (Lanes lanes = Lanes.builder().name("history").maxThreads(8).build()) {
            return runOn(lanes, name, options, config);
        }
    }

    /** Runs the workload on {@code dir/name.db}, closes it, and reads the final state back. */
    private Run runOn(Lanes lanes, String name, DatabaseOptions options, Config config) {
        Path file = dir.resolve(name + ".db");
        Database db = lanes.open(file, options);
        ListAppendWorkload.createSchema(db);
        ListAppendWorkload workload = new ListAppendWorkload(db, config);
        Stats stats;
        try {
            stats = workload.run(RUN_SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        long replays = db.diagnostics().writer().counters().replays();
        db.close();
        History history = new History(workload.ops(), finalStateOf(file), false);
        return new Run(history, stats, replays);
    }

    /** The lists in the file, read by a runtime of its own once the workload's closed it. */
    static java.util.Map<Integer, List<Long>> finalStateOf(Path file) {
        try (Lanes fresh = Lanes.builder().name("history-final").maxThreads(2).build()) {
            return ListAppendWorkload.finalState(fresh.open(file));
        }
    }

    static void assertConsistent(Run run) {
        assertThat(run.stats().unexpected()).as("failures that are not LanesExceptions").isEmpty();
        CheckResult result = ListAppendChecker.check(run.history());
        assertThat(result.anomalies()).as(result.report()).isEmpty();
        // The run had something to check: contended keys and reads that saw appends.
        assertThat(result.figures().get("graph.edges.ww")).isPositive();
        assertThat(result.figures().get("graph.edges.wr")).isPositive();
        assertThat(result.figures().get("graph.edges.rw")).isPositive();
    }

    static void assertKindsSucceeded(History history, Set<Kind> kinds) {
        Set<Kind> succeeded = history.ops().stream().filter(op -> op.outcome() == Outcome.OK)
                .map(Op::kind).collect(Collectors.toCollection(() -> EnumSet.noneOf(Kind.class)));
        assertThat(succeeded).containsAll(kinds);
    }

    static long count(History history, Outcome outcome) {
        return history.ops().stream().filter(op -> op.outcome() == outcome).count();
    }
}

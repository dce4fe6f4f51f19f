package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Database#backup(Path)}: an online copy on its own connection, consistent while writers
 * go on, checked before it gets its name, and never over an existing file.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BackupTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    private Database openRequests(String name) {
        Database db = runtime.open(name);
        db.execute("CREATE TABLE IF NOT EXISTS req(id INTEGER, part INTEGER, payload TEXT, "
                + "PRIMARY KEY (id, part))");
        return db;
    }

    /** Writes request {@code id}: two rows in one write. */
    private static void writeRequest(Database db, long id, String payload) {
        db.write(c -> {
            try (var s = c.prepareStatement("INSERT INTO req VALUES (?, ?, ?)")) {
                for (int part = 1; part <= 2; part++) {
                    s.setLong(1, id);
                    s.setInt(2, part);
                    s.setString(3, payload);
                    s.executeUpdate();
                }
            }
            return null;
        });
    }

    @Test
    void aBackupUnderConcurrentWritesIsOneConsistentStateAndWritersKeepGoing() throws Exception {
        Database db = openRequests("busy.db");
        AtomicLong ids = new AtomicLong();
        String payload = "p".repeat(1000);
        // ~24 MB already there, so that the copy takes a while.
        for (int batch = 0; batch < 120; batch++) {
            db.write(c -> {
                try (var s = c.prepareStatement("INSERT INTO req VALUES (?, ?, ?)")) {
                    for (int i = 0; i < 100; i++) {
                        long id = ids.incrementAndGet();
                        for (int part = 1; part <= 2; part++) {
                            s.setLong(1, id);
                            s.setInt(2, part);
                            s.setString(3, payload);
                            s.executeUpdate();
                        }
                    }
                }
                return null;
            });
        }

        Set<Long> acked = ConcurrentHashMap.newKeySet();
        AtomicBoolean backingUp = new AtomicBoolean();
        AtomicLong ackedDuringBackup = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch warmedUp = new CountDownLatch(200);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread w = new Thread(() -> {
                while (!stop.get()) {
                    long id = ids.incrementAndGet();
                    writeRequest(db, id, payload);
                    acked.add(id);
                    if (backingUp.get()) {
                        ackedDuringBackup.incrementAndGet();
                    }
                    warmedUp.countDown();
                }
            }, "writer-" + t);
            w.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
            writers.add(w);
            w.start();
        }
        TestLanes.await(warmedUp, "the writers to commit");

        Set<Long> ackedBefore = new HashSet<>(acked);
        Path copy = runtime.path("backup").resolve("busy-copy.db");
        Files.createDirectories(copy.getParent());
        backingUp.set(true);
        db.backup(copy);
        backingUp.set(false);
        long during = ackedDuringBackup.get();
        stop.set(true);
        for (Thread w : writers) {
            w.join(TestLanes.WAIT.toMillis());
        }
        assertThat(failure.get()).as("writers ran without failure").isNull();

        assertThat(during).as("writes committed while the backup ran").isPositive();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy);
                Statement s = c.createStatement()) {
            assertThat(single(s, "PRAGMA integrity_check")).isEqualTo("ok");
            Set<Long> inCopy = new HashSet<>();
            try (ResultSet rs = s.executeQuery("SELECT id, count(*) FROM req GROUP BY id")) {
                while (rs.next()) {
                    assertThat(rs.getInt(2)).as("parts of request %d in the copy", rs.getLong(1))
                            .isEqualTo(2);
                    inCopy.add(rs.getLong(1));
                }
            }
            assertThat(inCopy).as("every write acknowledged before the backup began")
                    .containsAll(ackedBefore);
            assertThat(inCopy.size()).as("a snapshot: not everything written afterwards")
                    .isLessThan(Math.toIntExact(ids.get()));
        }
        try (Stream<Path> files = Files.list(copy.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temporary file left").containsExactly("busy-copy.db");
        }
        writeRequest(db, ids.incrementAndGet(), payload);
    }

    @Test
    void theCopyOfAFreshDatabaseOpensAndPassesTheIntegrityCheck() throws Exception {
        Database db = runtime.open("fresh.db"); // nothing written yet
        Path copy = runtime.path("fresh-copy.db");
        db.backup(copy);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy);
                Statement s = c.createStatement()) {
            assertThat(single(s, "PRAGMA integrity_check")).isEqualTo("ok");
            assertThat(single(s, "PRAGMA journal_mode")).as("a plain file, no WAL beside it")
                    .isEqualTo("delete");
        }
    }

    @Test
    void anExistingTargetIsRefusedAndLeftUntouched() throws Exception {
        Database db = openRequests("kept.db");
        writeRequest(db, 1, "x");
        Path target = runtime.path("precious.txt");
        Files.writeString(target, "precious", StandardCharsets.UTF_8);

        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class,
                () -> db.backup(target));
        assertThat(e).isNotNull();
        assertThat(e.outcome()).isEqualTo(WriteOutcome.NOT_STARTED);
        assertThat(e.getMessage()).contains("precious.txt").contains("already exists");
        assertThat(Files.readString(target)).isEqualTo("precious");

        InvalidRequestException self = catchThrowableOfType(InvalidRequestException.class,
                () -> db.backup(db.path()));
        assertThat(self).isNotNull();
    }

    @Test
    void aBackupAfterCloseIsRefused() {
        Database db = openRequests("closed.db");
        db.close();
        Path target = runtime.path("late.db");
        assertThat(catchThrowableOfType(ClosedException.class, () -> db.backup(target)))
                .isNotNull();
        assertThat(target).doesNotExist();
    }

    @Test
    void aVirtualThreadCallerGetsItsCopyMadeOnThePool() throws Exception {
        VirtualThreads.assumeAvailable();
        Database db = openRequests("virtual.db");
        writeRequest(db, 1, "x");
        Path copy = runtime.path("virtual-copy.db");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean virtual = new AtomicBoolean();
        Runnable body = () -> {
            try {
                virtual.set(VirtualThreads.isVirtual(Thread.currentThread()));
                db.backup(copy);
            } catch (Throwable e) {
                failure.set(e);
            }
        };
        Thread t = VirtualThreads.start(body);
        t.join(TestLanes.WAIT.toMillis());
        assertThat(virtual).as("the caller was virtual").isTrue();
        assertThat(failure.get()).isNull();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy);
                Statement s = c.createStatement()) {
            assertThat(single(s, "PRAGMA integrity_check")).isEqualTo("ok");
            assertThat(single(s, "SELECT count(*) FROM req")).isEqualTo("2");
        }
    }

    private static String single(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}

package dev.lanes;

import static dev.lanes.TestLanes.join;
import static dev.lanes.TestLanes.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Open-time initialization and versioned migrations: {@link DatabaseOptions.Builder#initializer}
 * runs once on the writer, in one transaction, before the database is handed out, and {@link
 * Migrations} applies the scripts a database has not seen, tracked in {@code PRAGMA
 * user_version}. Persisted state is checked with a raw JDBC connection, not through Lanes.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MigrationTest {
    /** Each script logs its own number, so a script that runs twice shows up twice. */
    static final String V1 = "CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);"
            + " CREATE TABLE mig_log(id INTEGER PRIMARY KEY, script INTEGER NOT NULL);"
            + " INSERT INTO mig_log(script) VALUES (1)";
    static final String V2 = "ALTER TABLE account ADD COLUMN owner TEXT; -- needs v1's table\n"
            + "INSERT INTO account(balance, owner) VALUES (10, 'ann');"
            + "INSERT INTO mig_log(script) VALUES (2)";
    static final String V3 = "CREATE INDEX account_owner ON account(owner);"
            + " INSERT INTO mig_log(script) VALUES (3)";

    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    static DatabaseOptions migrating(String... scripts) {
        return DatabaseOptions.builder().initializer(Migrations.of(List.of(scripts))).build();
    }

    @Test
    void scriptsRunInOrderAndTheVersionIsRecorded() throws Exception {
        Database db = runtime.open("m.db", migrating(V1, V2, V3));

        // V2 needs V1's table and V3 needs V2's column: any other order would have failed.
        assertThat(scripts(db)).containsExactly(1L, 2L, 3L);
        assertThat(scalar(db, "PRAGMA user_version")).isEqualTo(3);
        assertThat(db.query("SELECT owner FROM account").get(0).getString("owner")).isEqualTo("ann");
        db.close();

        assertThat(rawUserVersion(db.path())).as("persisted").isEqualTo(3);
        assertThat(Migrations.of(List.of(V1, V2, V3)).latestVersion()).isEqualTo(3);
    }

    @Test
    void reopeningAppliesOnlyTheScriptsTheDatabaseHasNotSeen() throws Exception {
        Path file = runtime.path("m.db");
        runtime.lanes().open(file, migrating(V1, V2)).close();
        assertThat(rawUserVersion(file)).isEqualTo(2);

        // V1 and V2 would fail if run again (the table and the column exist already).
        Database db = runtime.lanes().open(file, migrating(V1, V2, V3));
        assertThat(scripts(db)).containsExactly(1L, 2L, 3L);
        assertThat(scalar(db, "PRAGMA user_version")).isEqualTo(3);
        db.close();

        Database same = runtime.lanes().open(file, migrating(V1, V2, V3));
        assertThat(scripts(same)).as("nothing ran at an open with nothing new")
                .containsExactly(1L, 2L, 3L);
        assertThat(scalar(same, "PRAGMA user_version")).isEqualTo(3);
    }

    @Test
    void aFailingMigrationLeavesThePreviousVersionIntactAndReleasesThePath() throws Exception {
        Path file = runtime.path("m.db");
        runtime.lanes().open(file, migrating(V1)).close();
        List<String> schemaBefore = rawSchema(file);
        assertThat(rawUserVersion(file)).isEqualTo(1);

        // V2 succeeds, then the third script fails at its second statement: the open applied
        // V2 and half of the third, and none of it may persist.
        String broken = "CREATE TABLE half(a); INSERT INTO no_such_table VALUES (1)";
        DatabaseDeadException e = catchThrowableOfType(DatabaseDeadException.class,
                () -> runtime.lanes().open(file, migrating(V1, V2, broken)));

        assertThat(e).as("lanes.open fails").isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.DATABASE_DEAD);
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("migration 2 (to version 3) failed at statement 1")
                .hasMessageContaining("no_such_table");
        assertThat(e.getCause().getCause()).as("the SQLite error")
                .isInstanceOf(java.sql.SQLException.class);

        assertThat(rawUserVersion(file)).as("the version it had").isEqualTo(1);
        assertThat(rawSchema(file)).as("the schema it had: no owner column, no table half")
                .isEqualTo(schemaBefore);
        assertThat(rawLong(file, "SELECT count(*) FROM mig_log")).isEqualTo(1);
        assertThat(rawLong(file, "SELECT count(*) FROM account")).as("V2's insert").isZero();

        // Not left registered, and the lease is free: another runtime can take the file.
        assertThat(runtime.lanes().diagnostics().openDatabases()).isZero();
        try (Lanes other = Lanes.builder().name("other").maxThreads(2).build()) {
            Database db = other.open(file);
            assertThat(scalar(db, "PRAGMA user_version")).isEqualTo(1);
        }

        // Fixed, the same path opens and migrates.
        Database fixed = runtime.lanes().open(file,
                migrating(V1, V2, "CREATE TABLE half(a); INSERT INTO mig_log(script) VALUES (3)"));
        assertThat(scripts(fixed)).containsExactly(1L, 2L, 3L);
        assertThat(scalar(fixed, "PRAGMA user_version")).isEqualTo(3);
    }

    @Test
    void aFailingInitializerOnANewFileLeavesNoneOfItsSchemaBehind() throws Exception {
        Path file = runtime.path("new.db");
        RuntimeException boom = new RuntimeException("boom");
        DatabaseOptions failing = DatabaseOptions.builder().initializer(c -> {
            c.createStatement().execute("CREATE TABLE made(a)");
            c.createStatement().execute("PRAGMA user_version = 7");
            throw boom;
        }).build();

        DatabaseDeadException e = catchThrowableOfType(DatabaseDeadException.class,
                () -> runtime.lanes().open(file, failing));

        assertThat(e).isNotNull();
        assertThat(e.getCause()).isSameAs(boom);
        assertThat(e.getMessage()).contains("new.db");
        assertThat(rawSchema(file)).noneMatch(s -> s.contains("made"));
        assertThat(rawUserVersion(file)).isZero();
        assertThat(runtime.lanes().diagnostics().openDatabases()).isZero();
        Database db = runtime.lanes().open(file);
        assertThat(db.execute("CREATE TABLE made(a)")).isZero();
    }

    @Test
    void aDatabaseNewerThanTheScriptsFailsToOpenAndIsNotModified() throws Exception {
        Path file = runtime.path("m.db");
        Database newer = runtime.lanes().open(file, migrating(V1, V2, V3));
        newer.execute("INSERT INTO account(balance, owner) VALUES (20, 'bob')");
        newer.close();
        String bytesBefore = sha256(file);
        List<String> schemaBefore = rawSchema(file);

        DatabaseDeadException e = catchThrowableOfType(DatabaseDeadException.class,
                () -> runtime.lanes().open(file, migrating(V1, V2)));

        assertThat(e).isNotNull();
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schema version 3 is newer than the 2 migrations")
                .hasMessageContaining("downgrade");
        assertThat(e.getMessage()).as("names the database").contains("m.db");
        assertThat(Files.exists(Path.of(file + "-wal")) ? Files.size(Path.of(file + "-wal")) : 0)
                .as("nothing left in a WAL").isZero();
        assertThat(sha256(file)).as("the file's bytes").isEqualTo(bytesBefore);
        assertThat(rawSchema(file)).isEqualTo(schemaBefore);
        assertThat(rawUserVersion(file)).isEqualTo(3);
        assertThat(rawLong(file, "SELECT count(*) FROM account")).isEqualTo(2);
    }

    @Test
    void concurrentOpensOfOnePathApplyTheMigrationsOnceAndShareOneDatabase() throws Exception {
        int threads = 8;
        Path file = runtime.path("m.db");
        CyclicBarrier barrier = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Database>> opened = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                // Each caller brings its own options object, as separate components would.
                DatabaseOptions options = migrating(V1, V2, V3);
                opened.add(pool.submit(() -> {
                    barrier.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    Database db = runtime.lanes().open(file, options);
                    // Handed out only once migrated: every opener sees the final schema.
                    assertThat(scalar(db, "PRAGMA user_version")).isEqualTo(3);
                    return db;
                }));
            }
            Database first = opened.get(0).get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            for (Future<Database> f : opened) {
                assertThat(f.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS)).isSameAs(first);
            }
            assertThat(scripts(first)).as("each script ran once").containsExactly(1L, 2L, 3L);
            assertThat(first.query("SELECT count(*) AS n FROM account").get(0).getLong("n"))
                    .isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentOpensOfAFailingMigrationAllFailAndLeaveThePathFree() throws Exception {
        int threads = 6;
        Path file = runtime.path("m.db");
        runtime.lanes().open(file, migrating(V1)).close();
        CyclicBarrier barrier = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Throwable>> opened = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                opened.add(pool.submit(() -> {
                    barrier.await(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    return org.assertj.core.api.Assertions.catchThrowable(
                            () -> runtime.lanes().open(file,
                                    migrating(V1, V2, "INSERT INTO nowhere VALUES (1)")));
                }));
            }
            for (Future<Throwable> f : opened) {
                assertThat(f.get(TestLanes.WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .isInstanceOf(DatabaseDeadException.class)
                        .hasRootCauseMessage("[SQLITE_ERROR] SQL error or missing database "
                                + "(no such table: nowhere)");
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(runtime.lanes().diagnostics().openDatabases()).isZero();
        assertThat(rawUserVersion(file)).isEqualTo(1);
        assertThat(rawLong(file, "SELECT count(*) FROM mig_log")).isEqualTo(1);
        Database db = runtime.lanes().open(file, migrating(V1, V2));
        assertThat(scripts(db)).containsExactly(1L, 2L);
    }

    @Test
    void transactionControlInAnInitializerIsRefusedAndNothingOfItPersists() throws Exception {
        Path file = runtime.path("tc.db");
        DatabaseOptions commits = DatabaseOptions.builder().initializer(c -> {
            c.createStatement().execute("CREATE TABLE early(a)");
            c.createStatement().execute("COMMIT");
            return null;
        }).build();
        DatabaseDeadException viaSql = catchThrowableOfType(DatabaseDeadException.class,
                () -> runtime.lanes().open(file, commits));
        assertThat(viaSql).isNotNull();
        assertThat(viaSql.getCause()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("COMMIT");

        // A refusal the initializer swallows still fails the open.
        DatabaseOptions swallows = DatabaseOptions.builder().initializer(c -> {
            c.createStatement().execute("CREATE TABLE early(a)");
            try {
                c.commit();
            } catch (InvalidRequestException ignored) {
                // swallowed on purpose
            }
            return null;
        }).build();
        DatabaseDeadException viaJdbc = catchThrowableOfType(DatabaseDeadException.class,
                () -> runtime.lanes().open(file, swallows));
        assertThat(viaJdbc).isNotNull();
        assertThat(viaJdbc.getCause()).isInstanceOf(InvalidRequestException.class);

        // Inside a migration script too, even after statements that ran.
        DatabaseDeadException viaScript = catchThrowableOfType(DatabaseDeadException.class,
                () -> runtime.lanes().open(file,
                        migrating("CREATE TABLE early(a); COMMIT; CREATE TABLE late(b)")));
        assertThat(viaScript).isNotNull();
        assertThat(viaScript.getCause()).hasMessageContaining("failed at statement 1")
                .hasCauseInstanceOf(InvalidRequestException.class);

        assertThat(rawSchema(file)).noneMatch(s -> s.contains("early") || s.contains("late"));
        assertThat(rawUserVersion(file)).isZero();
    }

    @Test
    void openWaitsForTheInitializerAndEveryRequestSeesItsSchema() throws Exception {
        Path file = runtime.path("w.db");
        CountDownLatch initializing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean initialized = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        DatabaseOptions options = DatabaseOptions.builder().initializer(c -> {
            runs.incrementAndGet();
            initializing.countDown();
            TestLanes.await(release, "the test to release the initializer");
            c.createStatement().execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            initialized.set(true);
            return null;
        }).build();

        CompletableFuture<Database> first = new CompletableFuture<>();
        Thread firstOpener = new Thread(() -> {
            try {
                Database db = runtime.lanes().open(file, options);
                assertThat(initialized).as("initialized when open returned").isTrue();
                first.complete(db);
            } catch (Throwable t) {
                first.completeExceptionally(t);
            }
        }, "first-opener");
        firstOpener.start();
        TestLanes.await(initializing, "the initializer to start");
        // A second opener arriving mid-initialization waits too, and writes at once after.
        CompletableFuture<Integer> second = new CompletableFuture<>();
        Thread secondOpener = new Thread(() -> {
            try {
                Database db = runtime.lanes().open(file, options);
                assertThat(initialized).as("initialized when open returned").isTrue();
                second.complete(join(db.writeAsync(TestLanes.insert("second")).thenApply(v -> 1)));
            } catch (Throwable t) {
                second.completeExceptionally(t);
            }
        }, "second-opener");
        secondOpener.start();
        TestLanes.awaitParked(secondOpener, Thread.State.WAITING);
        assertThat(first).as("open waits for the initializer").isNotDone();
        assertThat(second).as("open waits for the initializer").isNotDone();
        release.countDown();

        Database db = join(first);
        assertThat(join(second)).isEqualTo(1);
        assertThat(TestLanes.countOf(db, "second")).isEqualTo(1);
        assertThat(db.whenReady()).isCompletedWithValue(db);
        assertThat(runs).as("the initializer ran once").hasValue(1);
    }

    @Test
    void migrationsRejectBlankScriptsAtOnce() {
        assertThatThrownBy(() -> Migrations.of(List.of("CREATE TABLE a(x)", "  ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("script 1");
        assertThatThrownBy(() -> Migrations.of(null)).isInstanceOf(NullPointerException.class);
        assertThat(Migrations.of(List.of()).latestVersion()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    private static List<Long> scripts(Database db) {
        List<Long> out = new ArrayList<>();
        for (Row r : db.query("SELECT script FROM mig_log ORDER BY id")) {
            out.add(r.getLong("script"));
        }
        return out;
    }

    private static Connection raw(Path file) throws Exception {
        org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
        config.setReadOnly(true);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    static long rawLong(Path file, String sql) throws Exception {
        try (Connection c = raw(file); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static long rawUserVersion(Path file) throws Exception {
        return rawLong(file, "PRAGMA user_version");
    }

    /** Every schema object's type, name and SQL, in a stable order. */
    static List<String> rawSchema(Path file) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = raw(file); ResultSet rs = c.createStatement().executeQuery(
                "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")) {
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        return out;
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}

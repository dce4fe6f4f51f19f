package dev.lanes.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lanes.IdentityMismatchException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pinning rules of {@link Identity}, on plain connections. */
class IdentityPinningTest {
    @TempDir Path dir;

    private final List<IdentityMismatchException> told = new ArrayList<>();

    private Identity identity(Path db, boolean enabled, long reserve) {
        return new Identity(db, db.getFileName().toString(), enabled, reserve, Lease.NONE,
                told::add);
    }

    private static Connection open(Path db) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + db);
    }

    /** A database with a table of its own and no identity, as Lanes finds a file it never wrote. */
    private Path databaseWithoutIdentity(String file) throws SQLException {
        Path db = dir.resolve(file);
        try (Connection c = open(db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE x(v)");
        }
        return db;
    }

    @Test
    void theWriterInstallsAndPinsAndLaterConnectionsToTheSameFilePass() throws Exception {
        Path db = dir.resolve("a.db");
        Identity id = identity(db, true, 0);
        try (Connection w = open(db)) {
            id.onWriterOpened(w);
            assertThat(id.uuid()).isNotNull().isEqualTo(Identity.readUuid(w));
        }
        try (Connection again = open(db); Connection reader = open(db)) {
            id.onWriterOpened(again);
            id.onReaderOpened(reader);
        }
        assertThat(id.failure()).isNull();
        assertThat(told).isEmpty();
    }

    @Test
    void aReaderFirstPinsWithoutInstallingAndTheWriterInstallsLater() throws Exception {
        Path db = databaseWithoutIdentity("b.db");
        Identity id = identity(db, true, 0);
        try (Connection reader = open(db)) {
            id.onReaderOpened(reader);
            assertThat(Identity.readUuid(reader)).as("readers never install").isNull();
        }
        try (Connection w = open(db)) {
            id.onWriterOpened(w);
            assertThat(Identity.readUuid(w)).isNotNull().isEqualTo(id.uuid());
        }
    }

    /**
     * Readers of a database Lanes never wrote find no identity again and again (after the first,
     * each asks the schema before reading the table); an identity installed meanwhile by another
     * process is still found by the next reader and pinned, and a file whose identity differs
     * from it is then refused.
     */
    @Test
    void readersThatFoundNoIdentityStillFindOneInstalledLaterAndPinIt() throws Exception {
        Path db = databaseWithoutIdentity("r.db");
        Identity id = identity(db, true, 0);
        for (int i = 0; i < 3; i++) {
            try (Connection reader = open(db)) {
                id.onReaderOpened(reader);
            }
        }
        assertThat(id.uuid()).as("nothing to pin yet").isNull();
        try (Connection other = open(db); Statement s = other.createStatement()) {
            s.execute("CREATE TABLE " + Identity.TABLE + "(id INTEGER PRIMARY KEY, uuid TEXT)");
            s.execute("INSERT INTO " + Identity.TABLE + " VALUES (1, 'installed-elsewhere')");
        }
        try (Connection reader = open(db)) {
            id.onReaderOpened(reader);
        }
        assertThat(id.uuid()).isEqualTo("installed-elsewhere");
        try (Connection other = open(db); Statement s = other.createStatement()) {
            s.execute("UPDATE " + Identity.TABLE + " SET uuid = 'another-file' WHERE id = 1");
        }
        try (Connection reader = open(db)) {
            assertThat(catchThrowableOfType(IdentityMismatchException.class,
                    () -> id.onReaderOpened(reader))).isNotNull();
        }
        assertThat(id.failure()).isNotNull();
        assertThat(told).hasSize(1);
    }

    /**
     * A reader that read the file just before the writer's install committed found no identity;
     * that is the same file seen a moment earlier, not a swap. Opening an existing WAL database
     * that has no identity yet and reading it at once used to kill the database this way.
     */
    @Test
    void aReaderThatReadJustBeforeTheInstallCommittedIsNoMismatch() throws Exception {
        Path db = dir.resolve("race.db");
        try (Connection c = open(db); Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("CREATE TABLE x(v)");
        }
        Identity id = identity(db, true, 0);
        try (Connection w = open(db); Connection real = open(db)) {
            Connection reader = installingAfterFirstQuery(real, () -> id.onWriterOpened(w));
            id.onReaderOpened(reader);
            assertThat(id.uuid()).as("the writer installed and pinned meanwhile")
                    .isNotNull().isEqualTo(Identity.readUuid(real));
        }
        assertThat(id.failure()).isNull();
        assertThat(told).isEmpty();

        try (Connection reader = open(db)) {
            id.onReaderOpened(reader); // a reader after the install sees it, and passes
        }
        assertThat(id.failure()).isNull();
    }

    /** An action between the read's first query (its snapshot taken) and what it returns. */
    private interface Between {
        void run() throws SQLException;
    }

    /**
     * {@code real}, except that its statements' first query runs {@code between} after SQLite
     * stepped it (the read's snapshot is taken) or failed on the schema it read, and before the
     * caller sees the result.
     */
    private static Connection installingAfterFirstQuery(Connection real, Between between) {
        boolean[] ran = {false};
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = method.invoke(real, args);
                    if (!method.getName().equals("createStatement")) {
                        return result;
                    }
                    Statement statement = (Statement) result;
                    return Proxy.newProxyInstance(Statement.class.getClassLoader(),
                            new Class<?>[] {Statement.class}, (p, m, a) -> {
                                Object r;
                                try {
                                    r = m.invoke(statement, a);
                                } catch (InvocationTargetException e) {
                                    r = e.getCause(); // "no such table": the schema was read
                                }
                                if (m.getName().equals("executeQuery") && !ran[0]) {
                                    ran[0] = true;
                                    between.run();
                                }
                                if (r instanceof Throwable) {
                                    throw (Throwable) r;
                                }
                                return r;
                            });
                });
    }

    @Test
    void aSwappedFileFailsEveryLaterCheckAndTellsTheDatabaseOnce() throws Exception {
        Path db = dir.resolve("c.db");
        Identity id = identity(db, true, 0);
        try (Connection w = open(db)) {
            id.onWriterOpened(w);
        }
        Path other = databaseWithoutIdentity("other.db");
        Files.move(other, db, StandardCopyOption.REPLACE_EXISTING);

        try (Connection reader = open(db)) {
            IdentityMismatchException e = catchThrowableOfType(IdentityMismatchException.class,
                    () -> id.onReaderOpened(reader));
            assertThat(e.getMessage()).contains("file key");
        }
        try (Connection w = open(db)) {
            assertThat(catchThrowableOfType(IdentityMismatchException.class,
                    () -> id.onWriterOpened(w))).isNotNull();
            assertThat(Identity.readUuid(w)).as("nothing installed in the impostor").isNull();
        }
        assertThat(id.failure()).isNotNull();
        assertThat(told).hasSize(1);
    }

    @Test
    void atOrBelowTheDiskReserveNothingIsInstalledButTheFileKeyStillGuards() throws Exception {
        Path db = dir.resolve("d.db");
        Identity id = identity(db, true, Long.MAX_VALUE);
        try (Connection w = open(db)) {
            id.onWriterOpened(w);
            assertThat(Identity.readUuid(w)).isNull();
        }
        assertThat(id.uuid()).isNull();
        Path other = databaseWithoutIdentity("other.db");
        Files.move(other, db, StandardCopyOption.REPLACE_EXISTING);
        try (Connection reader = open(db)) {
            assertThat(catchThrowableOfType(IdentityMismatchException.class,
                    () -> id.onReaderOpened(reader))).isNotNull();
        }
    }

    @Test
    void turnedOffItNeitherInstallsNorChecks() throws Exception {
        Path db = dir.resolve("e.db");
        Identity id = identity(db, false, 0);
        try (Connection w = open(db)) {
            id.onWriterOpened(w);
            assertThat(Identity.readUuid(w)).isNull();
        }
        Path other = databaseWithoutIdentity("other.db");
        Files.move(other, db, StandardCopyOption.REPLACE_EXISTING);
        try (Connection reader = open(db)) {
            id.onReaderOpened(reader);
        }
        assertThat(told).isEmpty();
    }
}

package dev.lanes.internal.file;

import dev.lanes.ClosedException;
import dev.lanes.ClosingException;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReadFailedException;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.internal.scheduler.WorkerPool;
import dev.lanes.internal.sqlite.ConnectionSettings;
import dev.lanes.internal.sqlite.SqliteConnections;
import dev.lanes.internal.util.LogNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * An online, consistent copy of a database: {@code VACUUM INTO} on a read-only connection of its
 * own, never the writer's, so writers go on committing while it runs. {@code VACUUM INTO} reads
 * inside one read transaction, so the copy is exactly one committed state (a prefix of the commit
 * history), compacted, in rollback-journal mode.
 *
 * <p>The copy is written to a temporary file beside the target, synced, opened again and checked
 * with {@code PRAGMA integrity_check}, and only then given the target's name, with a hard link
 * (which, unlike a rename, never replaces a file that appeared meanwhile). A failed backup leaves
 * nothing at the target. SQLite runs only on platform threads: a virtual-thread caller hands the
 * copy to the runtime's pool, as a background turn, and waits. A database without a local file
 * (a cluster's) fills the temporary file its own way and is published the same way ({@link
 * #write}).
 *
 * <p>Concurrency: a backup touches nothing shared but the {@link Tracker}, whose fields are
 * guarded by its lock; the connections are confined to the thread running the copy.
 */
public final class Backup {
    private static final Logger log = LoggerFactory.getLogger(LogNames.FILES);

    private final Path target;
    private final String name;
    private final WorkerPool pool;
    /** The user's collations and functions, which the copy's indexes may need; null for none. */
    private final ConnectionSettings settings;

    /** What writes a complete database into a new file, which does not exist yet. */
    @FunctionalInterface
    public interface Copier {
        void copyTo(Path temp) throws Exception;
    }

    private Backup(Path target, String name, WorkerPool pool, ConnectionSettings settings) {
        this.target = target;
        this.name = name;
        this.pool = pool;
        this.settings = settings;
    }

    /**
     * Copies {@code source} to {@code target}, on this thread when it is a platform thread, else
     * on the pool.
     *
     * @throws InvalidRequestException when the target exists, is the database itself, or has a
     *     name that would open another file
     * @throws ReadFailedException when the copy failed; nothing is left at the target
     */
    public static void run(Path source, Path target, String name, Identity identity,
            ConnectionBudget budget, WorkerPool pool, Duration busyTimeout,
            ConnectionSettings settings) {
        Path absolute = target.toAbsolutePath().normalize();
        Path canonicalTarget = CanonicalPath.of(absolute);
        if (canonicalTarget.equals(source)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": the backup "
                    + "target is the database itself (" + target + "); choose another path", null);
        }
        String notLiteral = SqliteConnections.notLiteral(absolute);
        if (notLiteral != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": cannot back "
                    + "up to " + target + ": " + notLiteral, null);
        }
        refuseExisting(name, absolute);
        Backup b = new Backup(absolute, name, pool, settings);
        try {
            pool.onPlatform(() -> {
                b.copy(temp -> vacuumInto(source, temp, identity, budget, busyTimeout,
                        settings));
                return null;
            }, true);
        } catch (LanesException e) {
            throw e;
        } catch (Exception e) {
            throw new ReadFailedException(WriteOutcome.NOT_STARTED, name + ": the backup to "
                    + target + " failed: " + e, e);
        }
    }

    /**
     * Writes a copy of a database that has no local file to {@code target}, as {@link #run}
     * publishes its own: {@code copier} fills a temporary file beside the target, which is then
     * synced, checked with {@code PRAGMA integrity_check} (on a platform thread of {@code pool})
     * and given the target's name; a failed copy leaves nothing at the target. The copier runs
     * on the calling thread and hands its SQLite work to the pool itself.
     *
     * @throws InvalidRequestException when the target exists or has a name that would open
     *     another file; nothing was written
     * @throws ReadFailedException when the copy failed (or what the copier threw, when it is a
     *     Lanes exception)
     */
    public static void write(String name, Path target, WorkerPool pool, Copier copier) {
        Path absolute = target.toAbsolutePath().normalize();
        String notLiteral = SqliteConnections.notLiteral(absolute);
        if (notLiteral != null) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": cannot back "
                    + "up to " + target + ": " + notLiteral, null);
        }
        refuseExisting(name, absolute);
        new Backup(absolute, name, pool, null).copy(copier);
    }

    private static void refuseExisting(String name, Path target) {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": the backup "
                    + "target " + target + " already exists; a backup never overwrites a file. "
                    + "Choose a new path, or remove the file first", null);
        }
    }

    /** Fills a temporary file with {@code copier}, then syncs, verifies and publishes it. */
    private void copy(Copier copier) {
        Path dir = target.getParent();
        Path temp = dir.resolve(target.getFileName() + ".lanes-backup-"
                + UUID.randomUUID().toString().substring(0, 8));
        long start = System.nanoTime();
        boolean done = false;
        try {
            copier.copyTo(temp);
            sync(temp);
            pool.onPlatform(() -> {
                verify(temp);
                return null;
            }, true);
            publish(temp);
            done = true;
            log.info("{}: backed up to {} ({} bytes) in {} ms", name, target, Files.size(target),
                    (System.nanoTime() - start) / 1_000_000);
        } catch (LanesException e) {
            throw e;
        } catch (Exception e) {
            throw new ReadFailedException(WriteOutcome.NOT_STARTED, name + ": the backup to "
                    + target + " failed (" + e.getMessage() + "); nothing was left at the "
                    + "target", e);
        } finally {
            deleteQuietly(temp);
            if (!done) {
                deleteQuietly(temp.resolveSibling(temp.getFileName() + "-journal"));
            }
        }
    }

    /** {@code VACUUM INTO temp} on a fresh read-only connection to the database. */
    private static void vacuumInto(Path source, Path temp, Identity identity,
            ConnectionBudget budget, Duration busyTimeout, ConnectionSettings settings)
            throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(SqliteConnections.busyTimeoutMillis(busyTimeout));
        SQLiteConnection c = SqliteConnections.open(config, source,
                SqliteConnections.Limits.LOCKED_DOWN);
        budget.opened();
        try {
            c.getConnectionConfig().setAutoCommit(false); // manual mode: SQLite autocommits
            identity.onReaderOpened(c);
            settings.apply(c, ConnectionSettings.Role.BACKUP);
            try (PreparedStatement s = c.prepareStatement("VACUUM INTO ?")) {
                s.setString(1, temp.toString());
                SqliteConnections.withAttachSlot(c, s::execute); // VACUUM INTO attaches the copy
            }
        } finally {
            try {
                c.close();
            } finally {
                budget.closed();
            }
        }
    }

    private SQLiteConnection definitions(SQLiteConnection c) throws SQLException {
        if (settings != null) {
            settings.applyDefinitions(c, ConnectionSettings.Role.BACKUP);
        }
        return c;
    }

    private static void sync(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /**
     * Opens the copy and runs {@code PRAGMA integrity_check}, with the user's collations and
     * functions, which its indexes may need; throws unless it says ok.
     */
    private void verify(Path temp) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (SQLiteConnection c = SqliteConnections.open(config, temp,
                SqliteConnections.Limits.LOCKED_DOWN);
                Statement s = definitions(c).createStatement();
                ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            StringBuilder problems = new StringBuilder();
            while (rs.next()) {
                String line = rs.getString(1);
                if (!"ok".equals(line)) {
                    problems.append(problems.length() == 0 ? "" : "; ").append(line);
                }
            }
            if (problems.length() > 0) {
                throw new SQLException("the copy failed PRAGMA integrity_check: " + problems);
            }
        }
    }

    /** Gives the copy the target's name without ever replacing a file, then syncs the folder. */
    private void publish(Path temp) throws IOException {
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": the backup "
                    + "target " + target + " appeared while the copy was made; it was left "
                    + "untouched. Choose a new path", e);
        } catch (UnsupportedOperationException | IOException e) {
            // No hard links here: a move without REPLACE_EXISTING still refuses an existing file
            // (though not atomically).
            Files.move(temp, target);
        }
        try (FileChannel d = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            log.debug("{}: cannot sync the folder of {}: {}", name, target, e.toString());
        }
    }

    private void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("{}: cannot delete the temporary file {}", name, file, e);
        }
    }

    /**
     * The backups of one database in flight, so its close waits for their connections before the
     * lease is released. Guarded by {@link #lock}.
     */
    public static final class Tracker {
        private final String name;
        private final ReentrantLock lock = new ReentrantLock();
        // guarded by lock
        private int active;
        private boolean closing;
        private final CompletableFuture<Void> drained = new CompletableFuture<>();

        public Tracker(String name) {
            this.name = name;
        }

        /** Admits a backup. @throws ClosingException once the database is closing */
        public void enter() {
            lock.lock();
            try {
                if (closing) {
                    throw new ClosingException(name + ": the database is closing; the backup "
                            + "never started");
                }
                active++;
            } finally {
                lock.unlock();
            }
        }

        public void exit() {
            boolean last;
            lock.lock();
            try {
                active--;
                last = closing && active == 0;
            } finally {
                lock.unlock();
            }
            if (last) {
                drained.complete(null);
            }
        }

        /** Refuses new backups; completes when the ones in flight ended. */
        public CompletableFuture<Void> close() {
            boolean now;
            lock.lock();
            try {
                closing = true;
                now = active == 0;
            } finally {
                lock.unlock();
            }
            if (now) {
                drained.complete(null);
            }
            return drained;
        }

        /** A refusal for a database that is closed, for callers that check state first. */
        public ClosedException closed() {
            return new ClosedException(name + ": the database is closed; the backup never "
                    + "started");
        }
    }
}

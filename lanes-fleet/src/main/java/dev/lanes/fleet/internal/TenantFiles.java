package dev.lanes.fleet.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A node's local copies of its tenants, under {@code <data>/tenants/}: {@code <tenant>.db} with
 * its {@code -wal} and {@code -shm}, Litestream's shadow directory {@code .<tenant>.db-litestream},
 * and {@code <tenant>.released}, which says at which epoch this node released the copy after its
 * final replication. A copy is current, and served without a restore, only when that epoch is
 * the one etcd records as the latest and as released cleanly: nobody wrote it since.
 *
 * <p>Thread-safety: a tenant's files are touched only by the thread that acquires or releases
 * it; the fleet runs one such thread per tenant at a time.
 */
public final class TenantFiles {
    /** Tenant names: letters, digits, {@code . _ -}, 1 to 128 characters, not starting with a dot. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    private final Path dir;

    public TenantFiles(Path dataDirectory) {
        this.dir = dataDirectory.resolve("tenants");
    }

    /** Whether {@code tenant} is a name a tenant may have (it names files and keys). */
    public static boolean validName(String tenant) {
        return tenant != null && NAME.matcher(tenant).matches();
    }

    /** The tenant's database file. */
    public Path database(String tenant) {
        return dir.resolve(tenant + ".db");
    }

    /** Whether the local copy is the one released cleanly at {@code record}'s epoch. */
    public boolean current(String tenant, ReplicaRecord record) {
        if (record == null || !record.clean() || !Files.exists(database(tenant))) {
            return false;
        }
        try {
            Path marker = released(tenant);
            return Files.exists(marker) && Files.readString(marker, StandardCharsets.UTF_8).trim()
                    .equals(Long.toString(record.epoch()));
        } catch (IOException e) {
            return false;
        }
    }

    /** Notes that the local copy was released after its final replication at {@code epoch}. */
    public void markReleased(String tenant, long epoch) {
        try {
            Path tmp = dir.resolve(tenant + ".released.tmp");
            Files.writeString(tmp, Long.toString(epoch), StandardCharsets.UTF_8);
            Files.move(tmp, released(tenant), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets the release note (the copy is about to change). */
    public void clearReleased(String tenant) {
        try {
            Files.deleteIfExists(released(tenant));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the local copy, its WAL, shared memory, shadow directory and note. */
    public void delete(String tenant) {
        try {
            Files.createDirectories(dir);
            Path db = database(tenant);
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                Files.deleteIfExists(db.resolveSibling(db.getFileName() + suffix));
            }
            deleteTree(dir.resolve("." + tenant + ".db-litestream"));
            clearReleased(tenant);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh path beside the copies for a restore to write to. */
    public Path restoreTarget(String tenant) {
        try {
            Files.createDirectories(dir);
            Path target = dir.resolve(tenant + ".restoring");
            for (String suffix : new String[] {"", "-wal", "-shm", ".tmp", ".tmp-wal", ".tmp-shm"}) {
                Files.deleteIfExists(target.resolveSibling(target.getFileName() + suffix));
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Puts a restored file in place of the copy (deleted first). */
    public void install(String tenant, Path restored) {
        delete(tenant);
        try {
            Files.move(restored, database(tenant), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path released(String tenant) {
        return dir.resolve(tenant + ".released");
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

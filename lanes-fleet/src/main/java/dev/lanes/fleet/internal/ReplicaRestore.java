package dev.lanes.fleet.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores a tenant's epoch from its Litestream 0.3 replica in this process: lists the epoch's
 * prefix ({@link LitestreamLayout} picks what {@code litestream restore} would), downloads the
 * snapshot and the WAL segments, decompresses them (LZ4 frames, their checksums checked), and
 * rebuilds the database: the snapshot, then each WAL index's segments joined into one WAL
 * ({@link SqliteFiles} checks it whole), put beside the database and checkpointed into it by
 * SQLite, index after index. The result is renamed into place only once complete; a failure
 * leaves nothing behind.
 *
 * <p>Thread-safety: thread-safe; restores of different targets run in parallel.
 */
public final class ReplicaRestore {
    /** Segments downloaded at once by one restore. */
    private static final int WINDOW = 16;

    private static final Logger log = LoggerFactory.getLogger(ReplicaRestore.class);

    private final S3Client s3;
    private final String prefix;
    private final Set<String> restoring = ConcurrentHashMap.newKeySet();

    /**
     * @param prefix the fleet's key prefix ({@code ObjectStore.prefix()})
     */
    public ReplicaRestore(S3Client s3, String prefix) {
        this.s3 = s3;
        this.prefix = prefix;
    }

    /** The key prefix of a tenant's epochs, ending in {@code /}. */
    public String tenantPrefix(String tenant) {
        return prefix + "tenants/" + tenant + "/";
    }

    /**
     * Readies what a first restore would otherwise pay for on a fresh node, a second or so of a
     * failover on a loaded machine: the store's connection, TLS and signing, the XML reader, LZ4
     * and SQLite's driver. Runs on a daemon thread of its own; a failure only shows at debug
     * level (the restores report their own).
     */
    void warmUp() {
        Thread t = new Thread(() -> {
            try {
                s3.list(prefix + "lanes-warm-up/");
                java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
                try (var out = new net.jpountz.lz4.LZ4FrameOutputStream(frame)) {
                    out.write(new byte[] {1});
                }
                decompress(frame.toByteArray(), "warm-up");
                DriverManager.getConnection("jdbc:sqlite::memory:").close();
            } catch (IOException | SQLException | RuntimeException e) {
                log.debug("fleet: warming the restore path up failed: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fleet-restore-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /** Whether a restore from the tenant's epoch is under way here. */
    boolean restoring(String tenant, long epoch) {
        return restoring.contains(tenant + "/" + epoch);
    }

    /**
     * Restores the tenant's epoch into {@code target}, which must not exist.
     *
     * @return false when the store holds no snapshot of that epoch
     * @throws ReplicaCorruptException when the replica cannot be restored as it is
     * @throws UncheckedIOException when the store or the disk failed
     */
    public boolean restore(String tenant, long epoch, Path target) {
        String key = tenant + "/" + epoch;
        restoring.add(key);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            String path = tenantPrefix(tenant) + epoch + "/";
            var plan = new LitestreamLayout(path, s3.list(path)).plan();
            if (plan.isEmpty()) {
                return false;
            }
            build(plan.get(), tmp);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("restoring tenant " + tenant + " epoch " + epoch, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restoring " + tenant, e);
        } finally {
            restoring.remove(key);
            deleteQuietly(tmp);
        }
    }

    /**
     * Whether the replica at {@code replicaPath} (ending in {@code /}) holds generation {@code
     * generation}'s WAL up to {@code size} bytes of WAL index {@code index}: its last segment
     * there ends at or past that (the segment is read to learn where it ends), or a later index
     * began.
     */
    boolean holds(String replicaPath, String generation, long index, long size)
            throws IOException, InterruptedException {
        String wal = replicaPath + "generations/" + generation + "/wal/";
        var last = new LitestreamLayout(replicaPath, s3.list(wal)).lastSegment(generation);
        if (last.isEmpty() || last.get().index() < index) {
            return false;
        }
        LitestreamLayout.Part part = last.get();
        if (LitestreamMetrics.covers(part.index(), part.offset(), index, size)) {
            return true;
        }
        long end = part.offset() + decompress(s3.get(part.key()), part.key()).length;
        return LitestreamMetrics.covers(part.index(), end, index, size);
    }

    /**
     * Writes the snapshot to {@code tmp}, then applies each WAL index in turn. One part is held
     * in memory at a time: the snapshot, then one WAL index's segments (downloaded {@link
     * #WINDOW} at a time), so that a long epoch's restore needs no more memory than its largest
     * WAL index.
     */
    private void build(LitestreamLayout.Plan plan, Path tmp)
            throws IOException, InterruptedException {
        int pageSize = writeSnapshot(plan.snapshotKey(), tmp);
        Path wal = tmp.resolveSibling(tmp.getFileName() + "-wal");
        for (LitestreamLayout.WalIndex index : plan.wal()) {
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            for (byte[] segment : download(index.keys())) {
                joined.writeBytes(segment);
            }
            byte[] image = joined.toByteArray();
            SqliteFiles.checkWal(image, pageSize, "generation " + plan.generation()
                    + " WAL index " + index.index());
            Files.write(wal, image);
            checkpoint(tmp, index.index());
        }
        quickCheck(tmp, plan);
    }

    /**
     * Has SQLite check the restored database's structure ({@code PRAGMA quick_check}): pages
     * that a snapshot and the WAL replayed over it disagree on, or a damaged page that passed
     * every frame's checksum, fail the restore rather than open as a tenant.
     */
    private static void quickCheck(Path db, LitestreamLayout.Plan plan) {
        List<String> problems = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA quick_check(5)")) {
            while (rs.next()) {
                problems.add(rs.getString(1));
            }
        } catch (SQLException e) {
            problems = List.of(e.getMessage());
        }
        if (!problems.equals(List.of("ok"))) {
            throw new ReplicaCorruptException("the database restored from " + plan.snapshotKey()
                    + " and its WAL fails SQLite's quick_check: " + String.join("; ", problems));
        }
    }

    /** Writes the checked snapshot at {@code key} to {@code tmp}; returns its page size. */
    private int writeSnapshot(String key, Path tmp) throws IOException, InterruptedException {
        byte[] snapshot = download(List.of(key)).get(0);
        int pageSize = SqliteFiles.checkDatabase(snapshot, key);
        Files.write(tmp, snapshot);
        return pageSize;
    }

    /** Downloads and decompresses the objects, {@link #WINDOW} at a time, in their order. */
    private List<byte[]> download(List<String> keys) throws IOException, InterruptedException {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (int from = 0; from < keys.size(); from += WINDOW) {
            List<CompletableFuture<byte[]>> window = new ArrayList<>();
            for (String k : keys.subList(from, Math.min(keys.size(), from + WINDOW))) {
                window.add(s3.getAsync(k));
            }
            for (int i = 0; i < window.size(); i++) {
                out.add(decompress(S3Client.await(window.get(i)), keys.get(from + i)));
            }
        }
        return out;
    }

    /** An LZ4 frame's content; a damaged frame fails its checksum or its decoding. */
    static byte[] decompress(byte[] lz4, String key) {
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(lz4))) {
            return in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            throw new ReplicaCorruptException(key + " is not a whole LZ4 frame: " + e, e);
        }
    }

    /** Has SQLite move the WAL beside {@code db} into it, all of it. */
    private static void checkpoint(Path db, int index) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            if (!rs.next() || rs.getInt(1) != 0 || rs.getInt(2) == -1) {
                throw new IllegalStateException("checkpointing WAL index " + index
                        + " into " + db + " did not complete (not in WAL mode, or busy)");
            }
        } catch (SQLException e) {
            throw new ReplicaCorruptException("SQLite could not apply WAL index " + index
                    + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path tmp) {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            try {
                Files.deleteIfExists(tmp.resolveSibling(tmp.getFileName() + suffix));
            } catch (IOException e) {
                // a leftover beside the copies: the next restore target has another name
            }
        }
    }
}

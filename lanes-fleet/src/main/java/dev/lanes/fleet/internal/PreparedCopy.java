package dev.lanes.fleet.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A tenant's copy restored from an epoch's replica ({@link ReplicaRestore#prepare}) that can be
 * brought up to the replica's end later by applying only what was shipped since: the WAL
 * segments added to the last index it applied (that index is applied again whole, with them) and
 * the indexes after it. This is the tail a planned move's new owner needs once the old owner has
 * shipped its last commits, when the copy was restored while the old owner still served.
 *
 * <p>Thread-safety: not thread-safe; one caller at a time.
 */
public final class PreparedCopy {
    /** What of one generation of the replica a copy holds. */
    static final class Applied {
        private final String generation;
        private final String snapshotKey;
        private final int pageSize;
        /** Per WAL index applied, its segments' keys in offset order. */
        private final TreeMap<Integer, List<String>> keys = new TreeMap<>();
        /** The last index's image, as applied. */
        private byte[] lastImage = new byte[0];

        Applied(String generation, String snapshotKey, int pageSize) {
            this.generation = generation;
            this.snapshotKey = snapshotKey;
            this.pageSize = pageSize;
        }

        String generation() {
            return generation;
        }

        int pageSize() {
            return pageSize;
        }

        void index(int index, List<String> segments, byte[] image) {
            keys.put(index, List.copyOf(segments));
            lastImage = image;
        }
    }

    private final ReplicaRestore restore;
    private final String tenant;
    private final long epoch;
    private final Path file;
    private final Applied applied;

    PreparedCopy(ReplicaRestore restore, String tenant, long epoch, Path file, Applied applied) {
        this.restore = restore;
        this.tenant = tenant;
        this.epoch = epoch;
        this.file = file;
        this.applied = applied;
    }

    /** The copy's file. */
    public Path file() {
        return file;
    }

    /**
     * Applies what the replica holds beyond the copy. On false or an exception the copy is not
     * usable any more (it may hold part of a tail): restore the epoch in full instead.
     *
     * @return the number of segments applied, or empty when the replica does not continue the
     *     copy (another generation or snapshot, or a segment the copy holds is gone)
     * @throws ReplicaCorruptException when a segment is damaged
     */
    public Optional<Integer> catchUp() {
        try {
            Optional<LitestreamLayout.Plan> found = restore.plan(tenant, epoch);
            if (found.isEmpty() || !continues(found.get())) {
                return Optional.empty();
            }
            int segments = 0;
            for (LitestreamLayout.WalIndex index : found.get().wal()) {
                List<String> had = applied.keys.getOrDefault(index.index(), List.of());
                if (had.size() == index.keys().size()) {
                    continue; // nothing new in it
                }
                List<String> fresh = index.keys().subList(had.size(), index.keys().size());
                ByteArrayOutputStream image = new ByteArrayOutputStream();
                image.writeBytes(had.isEmpty() ? new byte[0] : applied.lastImage);
                restore.download(fresh).forEach(image::writeBytes);
                ReplicaRestore.applyWal(file, image.toByteArray(), applied, index.index());
                applied.index(index.index(), index.keys(), image.toByteArray());
                segments += fresh.size();
            }
            return Optional.of(segments);
        } catch (IOException e) {
            throw new UncheckedIOException("catching tenant " + tenant + " epoch " + epoch
                    + " up", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while catching " + tenant + " up", e);
        }
    }

    /**
     * Whether {@code plan} extends what the copy holds: the same generation and snapshot, every
     * index applied before the last unchanged, the last one's segments a prefix of its own.
     */
    private boolean continues(LitestreamLayout.Plan plan) {
        if (!plan.generation().equals(applied.generation)
                || !plan.snapshotKey().equals(applied.snapshotKey)) {
            return false;
        }
        List<LitestreamLayout.WalIndex> wal = new ArrayList<>(plan.wal());
        Integer last = applied.keys.isEmpty() ? null : applied.keys.lastKey();
        for (var e : applied.keys.entrySet()) {
            LitestreamLayout.WalIndex now = wal.stream().filter(w -> w.index() == e.getKey())
                    .findFirst().orElse(null);
            if (now == null || now.keys().size() < e.getValue().size()
                    || !now.keys().subList(0, e.getValue().size()).equals(e.getValue())
                    || (!e.getKey().equals(last) && now.keys().size() != e.getValue().size())) {
                return false;
            }
        }
        return true;
    }
}

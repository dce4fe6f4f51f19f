package dev.lanes.fleet.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Litestream 0.3's replica layout under one replica path, read from a listing: {@code
 * generations/<generation>/snapshots/<index>.snapshot.lz4} (the whole database, LZ4 frames) and
 * {@code generations/<generation>/wal/<index>_<offset>.wal.lz4} (a part of WAL file {@code
 * index} from byte {@code offset}), index and offset in hexadecimal (8 digits, LZ4 frames with
 * a content checksum). {@link #plan()} picks the generation last updated (the latest time of
 * its snapshots and of its WAL segments within their indexes, the first such generation by name
 * on a tie); of its snapshots, the one at the highest WAL index that the store's WAL has gone
 * past, else the one at the highest index (a snapshot's key is the WAL index it was taken in, a
 * later one in the same index replaces it, and the store's one-second times may not order
 * them); then every WAL index from the snapshot's on, each one's segments in offset order from
 * offset 0.
 *
 * <p>A snapshot at index {@code n} is the database file as it was while the WAL was at index
 * {@code n}: Litestream checkpoints before it copies the file, so the file holds the WAL's pages
 * up to some frame of index {@code n} (all of them, and index {@code n} just begun, when that
 * checkpoint restarts the WAL). WAL frames are whole pages, so applying index {@code n} from
 * offset 0 over it rewrites those pages with the same or later versions and ends at the same
 * database as applying it over any earlier state of the file, once the replica's WAL reaches
 * past the frames that checkpoint moved. Litestream copied them to its shadow WAL first and its
 * next sync ships them, but a node that dies in between leaves a snapshot newer than the WAL:
 * hence a snapshot of an index the WAL has gone past is preferred ({@code litestream restore}
 * takes the newest).
 *
 * <p>Thread-safety: immutable.
 */
public final class LitestreamLayout {
    private static final Pattern SNAPSHOT = Pattern.compile(
            "generations/([0-9a-f]+)/snapshots/([0-9a-f]+)\\.snapshot\\.lz4");
    private static final Pattern WAL = Pattern.compile(
            "generations/([0-9a-f]+)/wal/([0-9a-f]+)_([0-9a-f]+)\\.wal\\.lz4");

    /** A snapshot or WAL segment: its key, WAL index, offset (0 for snapshots) and time. */
    record Part(String key, int index, long offset, Instant created) {}

    /** One WAL file to apply: its segments' keys in offset order. */
    public record WalIndex(int index, List<String> keys) {}

    /** What a restore reads: the snapshot, then the WAL indexes in order. */
    public record Plan(String generation, String snapshotKey, int snapshotIndex,
            List<WalIndex> wal) {
        /** Every key the plan reads. */
        public int objects() {
            return 1 + wal.stream().mapToInt(w -> w.keys().size()).sum();
        }
    }

    private final Map<String, List<Part>> snapshots = new TreeMap<>();
    private final Map<String, List<Part>> segments = new TreeMap<>();

    /**
     * Reads a listing of {@code replicaPath} (ending in {@code /}); keys that are not part of the
     * layout are ignored.
     */
    public LitestreamLayout(String replicaPath, List<S3Client.Listed> listing) {
        for (S3Client.Listed o : listing) {
            if (!o.key().startsWith(replicaPath)) {
                continue;
            }
            String rel = o.key().substring(replicaPath.length());
            Matcher m = SNAPSHOT.matcher(rel);
            if (m.matches()) {
                snapshots.computeIfAbsent(m.group(1), g -> new ArrayList<>()).add(new Part(
                        o.key(), Integer.parseUnsignedInt(m.group(2), 16), 0, o.lastModified()));
            } else if ((m = WAL.matcher(rel)).matches()) {
                segments.computeIfAbsent(m.group(1), g -> new ArrayList<>()).add(new Part(
                        o.key(), Integer.parseUnsignedInt(m.group(2), 16),
                        Long.parseUnsignedLong(m.group(3), 16), o.lastModified()));
            }
        }
    }

    /**
     * What to restore, or empty when no generation holds a snapshot.
     *
     * @throws ReplicaCorruptException when the chosen generation's WAL has a gap
     */
    public Optional<Plan> plan() {
        String generation = null;
        Instant updated = Instant.MIN;
        for (String g : snapshots.keySet()) {
            Instant u = updatedAt(g);
            if (u.isAfter(updated)) {
                generation = g;
                updated = u;
            }
        }
        if (generation == null) {
            return Optional.empty();
        }
        Part snapshot = snapshotToRestore(generation);
        return Optional.of(new Plan(generation, snapshot.key(), snapshot.index(),
                walFrom(generation, snapshot.index())));
    }

    /**
     * The snapshot a restore starts from: the one at the highest WAL index below the index of the
     * generation's last WAL segment, else the one at the highest index. A snapshot taken while
     * its index was still being written can hold pages that a checkpoint moved from frames the
     * replica may not have received yet; once the store holds a segment of a later index, it holds
     * every frame of the earlier ones (Litestream ships WAL in order), so a restore from a
     * snapshot of a closed index never lays older frames over newer pages. It costs replaying one
     * more index.
     */
    private Part snapshotToRestore(String generation) {
        int lastIndex = lastSegment(generation).map(Part::index).orElse(-1);
        Comparator<Part> byIndex = Comparator.comparingInt(Part::index);
        List<Part> snaps = snapshots.get(generation);
        return snaps.stream().filter(s -> s.index() < lastIndex).max(byIndex)
                .orElseGet(() -> snaps.stream().max(byIndex).orElseThrow());
    }

    /**
     * The generation's last WAL segment: the one at the highest offset of its highest index, or
     * empty when it has none.
     */
    Optional<Part> lastSegment(String generation) {
        return segments.getOrDefault(generation, List.of()).stream()
                .max(Comparator.comparingInt(Part::index).thenComparingLong(Part::offset));
    }

    /** The latest time of the generation's snapshots and of its WAL within their indexes. */
    private Instant updatedAt(String generation) {
        List<Part> snaps = snapshots.get(generation);
        int min = snaps.stream().mapToInt(Part::index).min().orElseThrow();
        int max = snaps.stream().mapToInt(Part::index).max().orElseThrow();
        Instant updated = Instant.MIN;
        for (Part p : snaps) {
            updated = p.created().isAfter(updated) ? p.created() : updated;
        }
        for (Part p : segments.getOrDefault(generation, List.of())) {
            if (p.index() >= min && p.index() <= max && p.created().isAfter(updated)) {
                updated = p.created();
            }
        }
        return updated;
    }

    private List<WalIndex> walFrom(String generation, int first) {
        List<Part> parts = new ArrayList<>(segments.getOrDefault(generation, List.of()));
        parts.sort(Comparator.comparingInt(Part::index).thenComparingLong(Part::offset));
        Map<Integer, List<String>> byIndex = new TreeMap<>();
        Map<Integer, Long> lastOffset = new TreeMap<>();
        for (Part p : parts) {
            if (p.index() < first) {
                continue;
            }
            Long last = lastOffset.get(p.index());
            if (last == null && p.offset() != 0) {
                throw new ReplicaCorruptException("generation " + generation + " WAL index "
                        + p.index() + " has no segment at offset 0");
            }
            if (last != null && last == p.offset()) {
                throw new ReplicaCorruptException("generation " + generation + " WAL index "
                        + p.index() + " has two segments at offset " + p.offset());
            }
            lastOffset.put(p.index(), p.offset());
            byIndex.computeIfAbsent(p.index(), i -> new ArrayList<>()).add(p.key());
        }
        List<WalIndex> wal = new ArrayList<>();
        int expected = first;
        for (Map.Entry<Integer, List<String>> e : byIndex.entrySet()) {
            if (e.getKey() != expected) {
                throw new ReplicaCorruptException("generation " + generation
                        + " lacks WAL index " + expected + " (next is " + e.getKey() + ")");
            }
            wal.add(new WalIndex(e.getKey(), List.copyOf(e.getValue())));
            expected++;
        }
        return List.copyOf(wal);
    }
}

package dev.lanes.fleet.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * One scrape of a Litestream process's Prometheus endpoint ({@code addr} in its configuration),
 * by database: how many syncs (WAL to shadow WAL) ran, where the shadow WAL ends, and where the
 * replica's copy of it ends. Litestream's shadow WAL copies the database's WAL frame for frame,
 * and a new shadow index starts when the WAL starts over, so a replica position at or past the
 * end of the shadow's current file means the store holds every frame Litestream had seen then.
 * The shadow size Litestream reports is the sum over the shadow files it still keeps (the one
 * before the replica's stays), not the current file's end: see {@link
 * ReplicaCatchUp.Shadow}.
 */
public final class LitestreamMetrics {
    /**
     * Litestream's positions for one database; the replica's are -1 while it reports none (a
     * process reports them only once it uploaded WAL for the database).
     */
    public record Position(long syncs, long shadowIndex, long shadowSize, long replicaIndex,
            long replicaOffset) {
        /** Whether the replica holds everything up to {@code shadow}. */
        public boolean replicaCovers(long index, long size) {
            return covers(replicaIndex, replicaOffset, index, size);
        }

        /** Whether the process reported the replica's position. */
        public boolean replicaReported() {
            return replicaIndex >= 0 && replicaOffset >= 0;
        }
    }

    /**
     * Whether a replica whose WAL ends at {@code replicaOffset} of index {@code replicaIndex}
     * holds the shadow WAL up to {@code size} bytes of index {@code index}.
     */
    static boolean covers(long replicaIndex, long replicaOffset, long index, long size) {
        return replicaIndex > index || (replicaIndex == index && replicaOffset >= size);
    }

    private final Map<String, long[]> byDb = new HashMap<>();

    private LitestreamMetrics() {}

    /** Parses the text exposition format; lines it does not know are skipped. */
    public static LitestreamMetrics parse(String text) {
        LitestreamMetrics m = new LitestreamMetrics();
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !line.startsWith("litestream_")) {
                continue;
            }
            int brace = line.indexOf('{');
            int close = line.lastIndexOf('}');
            if (brace < 0 || close < brace) {
                continue;
            }
            int slot = switch (line.substring(0, brace)) {
                case "litestream_sync_count" -> 0;
                case "litestream_shadow_wal_index" -> 1;
                case "litestream_shadow_wal_size" -> 2;
                case "litestream_replica_wal_index" -> 3;
                case "litestream_replica_wal_offset" -> 4;
                default -> -1;
            };
            if (slot < 0) {
                continue;
            }
            String db = label(line.substring(brace + 1, close), "db");
            if (db == null) {
                continue;
            }
            long value = (long) Double.parseDouble(line.substring(close + 1).trim());
            long[] v = m.byDb.computeIfAbsent(db, k -> new long[] {-1, -1, -1, -1, -1});
            v[slot] = value;
        }
        return m;
    }

    /**
     * The positions of {@code db} (its absolute path), if Litestream reported its syncs and
     * shadow WAL (the replica's position may be missing: see {@link Position}).
     */
    public Position of(String db) {
        long[] v = byDb.get(db);
        if (v == null || v[0] < 0 || v[1] < 0 || v[2] < 0) {
            return null;
        }
        return new Position(v[0], v[1], v[2], v[3], v[4]);
    }

    private static String label(String labels, String name) {
        String needle = name + "=\"";
        int at = labels.indexOf(needle);
        if (at < 0) {
            return null;
        }
        int start = at + needle.length();
        int end = labels.indexOf('"', start);
        return end < 0 ? null : labels.substring(start, end);
    }
}

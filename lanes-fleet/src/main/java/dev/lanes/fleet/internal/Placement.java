package dev.lanes.fleet.internal;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;

/**
 * Rendezvous (highest random weight) hashing: a tenant goes to the live node whose hash with the
 * tenant is highest. Adding a node moves only the tenants that node now wins; removing one moves
 * only its own. The etcd transaction decides the owner: placement only says who should claim.
 */
public final class Placement {
    private Placement() {}

    /** The node that should own {@code tenant} among {@code nodes}, if any. */
    public static Optional<String> pick(String tenant, Collection<String> nodes) {
        String best = null;
        long bestWeight = 0;
        for (String node : nodes) {
            long w = weight(tenant, node);
            if (best == null || Long.compareUnsigned(w, bestWeight) > 0
                    || (w == bestWeight && node.compareTo(best) < 0)) {
                best = node;
                bestWeight = w;
            }
        }
        return Optional.ofNullable(best);
    }

    static long weight(String tenant, String node) {
        long h = 0xcbf29ce484222325L; // FNV-1a over tenant, a separator and node
        for (byte b : (tenant + '\u0000' + node).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        // a final mix (SplitMix64's) so that similar names spread
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }
}

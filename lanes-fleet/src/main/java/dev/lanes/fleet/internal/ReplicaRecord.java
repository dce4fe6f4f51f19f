package dev.lanes.fleet.internal;

/**
 * Where a tenant's latest state lives in object storage: each ownership epoch (fencing token)
 * replicates to a prefix of its own, and this record, kept in etcd without a lease, names the
 * epoch to restore from. An owner records its epoch once its replica holds the tenant (its first
 * snapshot); a clean release records it again with {@code clean}, after the last replication,
 * so that a node whose local copy was released at that epoch may serve it without a restore.
 *
 * @param epoch the fencing token of the epoch whose replica holds the latest state
 * @param clean whether that epoch ended by a release after its final replication
 * @param node the node that wrote the epoch
 */
public record ReplicaRecord(long epoch, boolean clean, String node) {
    /** The text stored in etcd. */
    public String encode() {
        return "epoch=" + epoch + " clean=" + (clean ? 1 : 0) + " node=" + node;
    }

    /** Reads {@link #encode()}'s text. */
    public static ReplicaRecord decode(String text) {
        long epoch = -1;
        boolean clean = false;
        String node = "";
        for (String part : text.trim().split(" ")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String k = part.substring(0, eq);
            String v = part.substring(eq + 1);
            switch (k) {
                case "epoch" -> epoch = Long.parseLong(v);
                case "clean" -> clean = v.equals("1");
                case "node" -> node = v;
                default -> { }
            }
        }
        if (epoch < 0) {
            throw new IllegalArgumentException("not a replica record: " + text);
        }
        return new ReplicaRecord(epoch, clean, node);
    }
}

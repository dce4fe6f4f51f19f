package dev.lanes.fleet.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the replicas a tenant no longer needs: once an epoch is recorded as the tenant's
 * replica, the prefixes of its older epochs under {@code <prefix>tenants/<tenant>/} are never
 * restored from again. One background thread deletes them object by object, at most {@link
 * #QUEUE} tenants waiting (a tenant asked for again while it waits is asked once, for its latest
 * epoch; one past the bound is left for its next recording). Never deleted: the recorded epoch,
 * newer ones (a later owner's), and an epoch a restore on this node is reading.
 *
 * <p>Thread-safety: thread-safe.
 */
final class ReplicaCleanup implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReplicaCleanup.class);
    private static final int QUEUE = 1024;

    private final S3Client s3;
    private final ReplicaRestore restores;
    /** Tenants waiting, with the epoch recorded last. */
    private final Map<String, Long> pending = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor executor;

    ReplicaCleanup(S3Client s3, ReplicaRestore restores) {
        this.s3 = s3;
        this.restores = restores;
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "fleet-replica-cleanup");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.DiscardPolicy());
    }

    /** Deletes, in the background, the tenant's epochs older than {@code recorded}. */
    void olderThan(String tenant, long recorded) {
        if (pending.merge(tenant, recorded, Math::max) == recorded) {
            executor.execute(() -> run(tenant));
        }
    }

    private void run(String tenant) {
        Long recorded = pending.remove(tenant);
        if (recorded == null) {
            return;
        }
        try {
            int deleted = deleteOlder(tenant, recorded);
            if (deleted > 0) {
                log.debug("fleet: deleted {} objects of tenant {}'s epochs before {}", deleted,
                        tenant, recorded);
            }
        } catch (IOException e) {
            log.warn("fleet: deleting tenant {}'s epochs before {} failed (left for its next"
                    + " recording): {}", tenant, recorded, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Deletes the objects of the tenant's epochs before {@code recorded}; how many. */
    int deleteOlder(String tenant, long recorded) throws IOException, InterruptedException {
        String prefix = restores.tenantPrefix(tenant);
        List<S3Client.Listed> objects = new ArrayList<>(s3.list(prefix));
        // the deepest first: a store that lists directories (s3proxy's filesystem) has them
        // empty by the time they go
        Collections.reverse(objects);
        int deleted = 0;
        for (S3Client.Listed o : objects) {
            String rest = o.key().substring(prefix.length());
            int slash = rest.indexOf('/');
            long epoch;
            try {
                epoch = Long.parseLong(slash < 0 ? rest : rest.substring(0, slash));
            } catch (NumberFormatException e) {
                continue; // not an epoch's
            }
            if (epoch < recorded && !restores.restoring(tenant, epoch)) {
                s3.delete(o.key());
                deleted++;
            }
        }
        return deleted;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

package dev.lanes.fleet.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target's side of a planned move announced to this node ({@link Ownership#announceMove}):
 * restores the tenant's current epoch into a copy of its own while the old owner still serves,
 * then says so; when the tenant is handed over, {@link #take} gives the copy to the acquisition,
 * which applies only the tail shipped since ({@link PreparedCopy#catchUp}). A copy whose move
 * did not happen stays beside the copies until the tenant's next move here replaces it.
 *
 * <p>Thread-safety: thread-safe; preparations run on daemon threads that end when idle.
 */
final class MovePreparer {
    private static final Logger log = LoggerFactory.getLogger(MovePreparer.class);

    /** A copy being readied: the epoch it restores, and the copy (empty when none came). */
    private record Preparation(long epoch, CompletableFuture<Optional<PreparedCopy>> copy) {}

    private final Ownership ownership;
    private final Replicator replicator;
    private final TenantFiles files;
    private final Map<String, Preparation> preparations = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor threads = new ThreadPoolExecutor(2, 2, 1, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "fleet-move-prepare");
                t.setDaemon(true);
                return t;
            });

    MovePreparer(Ownership ownership, Replicator replicator, TenantFiles files) {
        threads.allowCoreThreadTimeOut(true);
        this.ownership = ownership;
        this.replicator = replicator;
        this.files = files;
        ownership.onMoveAnnounced(this::announced);
    }

    private void announced(String tenant, long epoch) {
        CompletableFuture<Optional<PreparedCopy>> copy = new CompletableFuture<>();
        Preparation mine = new Preparation(epoch, copy);
        Preparation now = preparations.compute(tenant, (t, p) -> p != null
                && (p.epoch() == epoch || !p.copy().isDone()) ? p : mine);
        if (now == mine) { // else one is under way, or done for this epoch
            threads.execute(() -> prepare(tenant, epoch, copy));
        }
    }

    private void prepare(String tenant, long epoch,
            CompletableFuture<Optional<PreparedCopy>> copy) {
        long started = System.nanoTime();
        try {
            copy.complete(replicator.prepare(tenant, epoch, files.preparedTarget(tenant)));
            log.info("fleet {}: readied tenant {} epoch {} for a planned move in {} ms",
                    ownership.nodeId(), tenant, epoch, (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            log.info("fleet {}: readying tenant {} epoch {} for a planned move failed ({}); it"
                    + " is restored in full if it comes", ownership.nodeId(), tenant, epoch,
                    e.toString());
            copy.complete(Optional.empty());
        }
        try {
            ownership.markReadied(tenant, epoch);
        } catch (RuntimeException e) {
            log.debug("fleet {}: saying tenant {} is readied failed: {}", ownership.nodeId(),
                    tenant, e.toString());
        }
    }

    /**
     * The copy readied of the tenant's epoch {@code epoch}, brought up to its replica's end and
     * moved to {@code target}, or null when there is none (or it does not continue): the caller
     * restores in full. Waits for a preparation still under way.
     */
    Path take(String tenant, long epoch, Path target) {
        Preparation p = preparations.remove(tenant);
        if (p == null) {
            return null;
        }
        PreparedCopy copy = p.copy().join().orElse(null);
        if (copy == null) {
            return null;
        }
        try {
            Optional<Integer> tail = p.epoch() == epoch ? copy.catchUp() : Optional.empty();
            if (tail.isPresent()) {
                Files.move(copy.file(), target);
                log.info("fleet {}: tenant {} epoch {}: the readied copy caught up ({} segments)",
                        ownership.nodeId(), tenant, epoch, tail.get());
                return target;
            }
        } catch (RuntimeException | java.io.IOException e) {
            log.info("fleet {}: catching tenant {}'s readied copy up failed ({}); restoring it in"
                    + " full", ownership.nodeId(), tenant, e.toString());
        }
        files.preparedTarget(tenant); // deletes what is left of it
        return null;
    }
}

package dev.lanes.internal.reader;

import dev.lanes.LanesException;
import dev.lanes.internal.scheduler.ConnectionBudget;
import dev.lanes.DatabaseOptions;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Model-checks the readers' lock-free admission ({@link ReaderSet}'s fast path: a CAS on the free
 * slots while nobody waits) against the locked path and the hand-off of a returned slot to a
 * waiter, under every interleaving Lincheck explores. Reads are asynchronous admissions whose
 * grant returns the lease at once; no connection ever opens. Every interleaving must keep the
 * holders within the capacity, and strand no waiter: at the end nothing is checked out and
 * nobody waits.
 */
public class ReaderAdmissionLincheckTest {
    private static final int CAPACITY = 1;

    private final ManualClock clock = new ManualClock();
    private final ReaderSet readers = new ReaderSet("r.db", Path.of("r.db"),
            DatabaseOptions.builder().readers(CAPACITY).readerCheckoutTimeout(Duration.ofMinutes(1))
                    .busyTimeout(Duration.ofSeconds(5)).statementCacheSize(0).build(), null,
            MetricsReporter.NONE, () -> {}, new ConnectionBudget(0), null, clock, clock);
    private final AtomicInteger holders = new AtomicInteger();

    /** A read admitted now or later; its grant holds the reader briefly and returns it. */
    private final AsyncAdmission returnAtOnce = new AsyncAdmission() {
        @Override
        public void granted(Lease lease) {
            if (holders.incrementAndGet() > CAPACITY) {
                throw new IllegalStateException("more reads hold a reader than there are readers");
            }
            holders.decrementAndGet();
            readers.release(lease, true);
        }

        @Override
        public void refused(LanesException failure) {
            throw new IllegalStateException("a read was refused: " + failure);
        }
    };

    @Operation
    public void read() {
        readers.acquireAsync(false, 0, returnAtOnce);
    }

    @Operation
    public void readHeldAcrossAnother() {
        Lease lease = readers.acquire(false, 0);
        if (holders.incrementAndGet() > CAPACITY) {
            throw new IllegalStateException("more reads hold a reader than there are readers");
        }
        holders.decrementAndGet();
        readers.release(lease, true);
    }

    /** At the end every slot is back and nobody waits. */
    @Validate
    public void noSlotStranded() {
        if (readers.inUse() != 0 || readers.waiting() != 0) {
            throw new IllegalStateException(readers.inUse() + " in use and "
                    + readers.waiting() + " waiting after every read ended");
        }
    }

    @Test
    @Tag("slow")
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyInterleavingKeepsTheBoundAndStrandsNoWaiter() {
        new ModelCheckingOptions().iterations(5).invocationsPerIteration(100).threads(3)
                .actorsPerThread(2).check(ReaderAdmissionLincheckTest.class);
    }
}

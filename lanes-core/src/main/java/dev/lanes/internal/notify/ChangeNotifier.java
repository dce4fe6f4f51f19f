package dev.lanes.internal.notify;

import dev.lanes.Change;
import dev.lanes.Subscription;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One database's change notifications: its change version, its subscribers, and the hand-off
 * from a commit on the writer lane to the runtime's {@link ChangeDispatcher} thread.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li>{@link #committed} runs on the writer lane's thread after each commit that changed rows
 *       and returns at once: it bumps {@link #version} (volatile, added to through {@link
 *       #VERSION}, read by anyone), and only when someone listens queues a {@link Change} and
 *       makes sure one delivery task is submitted.
 *   <li>Everything a subscriber needs lives in one {@link Deliveries}, made by the first {@link
 *       #subscribe} and kept from then on: a database nobody listens to (most of them, with many
 *       databases) holds none of it. {@link #deliveries} is volatile and set once, by
 *       compare-and-set ({@link #DELIVERIES}), to an object whose fields are final but {@code
 *       scheduled} (guarded by its lock) and {@code tracking} (volatile), so whoever reads the
 *       field sees the object whole. Before it is set nobody listens, and {@link #committed}
 *       only counts.
 *   <li>A {@link Deliveries}' lock guards its {@code pending}, {@code committedAt} and {@code
 *       scheduled}: at most one delivery task of this database is queued or running at a time
 *       ({@code scheduled}), so deliveries are in version order. A task delivers at most {@link
 *       #BATCH} changes, then submits itself again if more wait, so other databases' deliveries
 *       interleave.
 *   <li>Its {@code subscribers} list is copy-on-write; adding and removing also run under its
 *       lock so that {@code tracking} (read by the lane at the start of every transaction, to
 *       decide whether to record changed tables) always matches whether the list is empty.
 * </ul>
 *
 * <p>Backlog: when {@link #MAX_PENDING} changes wait, a new change is merged into the newest
 * waiting one (newest version, union of tables), so a slow listener costs bounded memory and
 * never slows the writer. A listener that throws is logged and skipped; the others and the
 * database go on.
 *
 * <p>Lag: with a metrics listener installed, each waiting change keeps the time (the runtime's
 * clock) its oldest commit returned, in {@code committedAt} beside {@code pending} (a merged
 * change keeps the older time); each delivery to a subscriber reports the lag since then, just
 * before the subscriber's callback runs. The times live in a ring of longs, so stamping a
 * commit allocates nothing once the ring has grown to the backlog's size.
 */
public final class ChangeNotifier implements CommitObserver {
    private static final Logger log = LoggerFactory.getLogger(LogNames.NOTIFY);
    private static final VarHandle VERSION =
            VarHandles.field(MethodHandles.lookup(), "version", long.class);
    private static final VarHandle DELIVERIES =
            VarHandles.field(MethodHandles.lookup(), "deliveries", Deliveries.class);

    /** Changes waiting for delivery before new ones are merged into the newest. */
    static final int MAX_PENDING = 1024;
    /** Changes one delivery task hands out before giving the dispatcher to other databases. */
    static final int BATCH = 64;

    private final String name;
    private final ChangeDispatcher dispatcher;
    private final Clock clock;
    private final MetricsReporter metrics;
    private volatile long version;
    /** Null until the first subscription; see the class comment. */
    private volatile Deliveries deliveries;

    /** The subscribers of one database and the changes waiting for them. */
    private static final class Deliveries {
        final ReentrantLock lock = new ReentrantLock();
        final CopyOnWriteArrayList<Listener> subscribers = new CopyOnWriteArrayList<>();
        volatile boolean tracking;
        // guarded by lock
        final ArrayDeque<Change> pending = new ArrayDeque<>();
        /** The commit time of each change in {@code pending}, in the same order; metrics only. */
        final Stamps committedAt = new Stamps();
        boolean scheduled;
    }

    public ChangeNotifier(String name, ChangeDispatcher dispatcher, Clock clock,
            MetricsReporter metrics) {
        this.name = name;
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** The current change version: how many commits that changed rows happened since open. */
    public long version() {
        return version;
    }

    @Override
    public boolean tracksTables() {
        Deliveries d = deliveries;
        return d != null && d.tracking;
    }

    @Override
    public void committed(Set<String> tables) {
        long v = (long) VERSION.getAndAdd(this, 1L) + 1;
        Deliveries d = deliveries;
        if (d == null || !d.tracking) {
            return;
        }
        boolean stamped = metrics.enabled();
        long now = stamped ? clock.nanoTime() : 0;
        boolean submit = false;
        d.lock.lock();
        try {
            if (d.pending.size() >= MAX_PENDING) {
                Change newest = d.pending.pollLast();
                Set<String> union = new HashSet<>(newest.tables());
                union.addAll(tables);
                d.pending.addLast(new Change(v, union)); // keeps the older commit's time
            } else {
                d.pending.addLast(new Change(v, tables));
                if (stamped) {
                    d.committedAt.add(now);
                }
            }
            if (!d.scheduled) {
                d.scheduled = true;
                submit = true;
            }
        } finally {
            d.lock.unlock();
        }
        if (submit) {
            submitDelivery(d);
        }
    }

    private void submitDelivery(Deliveries d) {
        if (!dispatcher.submit(() -> deliver(d))) {
            d.lock.lock();
            try {
                d.pending.clear(); // the runtime is closed: nobody is left to deliver to
                d.committedAt.clear();
                d.scheduled = false;
            } finally {
                d.lock.unlock();
            }
        }
    }

    /** A delivery task, on the dispatcher thread: up to {@link #BATCH} changes, in order. */
    private void deliver(Deliveries d) {
        boolean stamped = metrics.enabled();
        for (int i = 0; i < BATCH; i++) {
            Change change;
            long committed = 0;
            d.lock.lock();
            try {
                change = d.pending.pollFirst();
                if (change == null) {
                    d.scheduled = false;
                    return;
                }
                if (stamped) {
                    committed = d.committedAt.poll();
                }
            } finally {
                d.lock.unlock();
            }
            for (Listener s : d.subscribers) {
                s.deliver(change, stamped, committed);
            }
        }
        d.lock.lock();
        try {
            if (d.pending.isEmpty()) {
                d.scheduled = false;
                return;
            }
        } finally {
            d.lock.unlock();
        }
        submitDelivery(d); // more waits: queue behind other databases' deliveries
    }

    /** Registers a listener for the changes committed from now on. */
    public Subscription subscribe(Consumer<Change> listener) {
        Objects.requireNonNull(listener, "listener");
        Deliveries d = VarHandles.getOrSet(DELIVERIES, this, Deliveries::new);
        d.lock.lock();
        try {
            Listener s = new Listener(d, listener, version);
            d.subscribers.add(s);
            d.tracking = true;
            return s;
        } finally {
            d.lock.unlock();
        }
    }

    private static void unsubscribe(Deliveries d, Listener s) {
        d.lock.lock();
        try {
            d.subscribers.remove(s);
            d.tracking = !d.subscribers.isEmpty();
        } finally {
            d.lock.unlock();
        }
    }

    /** Subscribers now; for tests and diagnostics. */
    int subscribers() {
        Deliveries d = deliveries;
        return d == null ? 0 : d.subscribers.size();
    }

    /** One subscription; delivers only changes newer than its start. */
    private final class Listener implements Subscription {
        private final Deliveries deliveries;
        private final Consumer<Change> listener;
        private final long startVersion;
        private volatile boolean active = true;

        Listener(Deliveries deliveries, Consumer<Change> listener, long startVersion) {
            this.deliveries = deliveries;
            this.listener = listener;
            this.startVersion = startVersion;
        }

        void deliver(Change change, boolean stamped, long committedAt) {
            if (!active || change.version() <= startVersion) {
                return;
            }
            if (stamped) {
                metrics.changeDelivered(clock.nanoTime() - committedAt);
            }
            try {
                listener.accept(change);
            } catch (Throwable e) {
                log.warn("{}: a change listener failed on change {}; other listeners and the "
                        + "database are unaffected", name, change.version(), e);
            }
        }

        @Override
        public boolean isActive() {
            return active;
        }

        @Override
        public void close() {
            if (active) {
                active = false;
                unsubscribe(deliveries, this);
            }
        }

        @Override
        public String toString() {
            return "Subscription[" + name + ", " + (active ? "active" : "closed") + "]";
        }
    }

    /** A queue of longs in a ring that doubles when full; guarded by the notifier's lock. */
    private static final class Stamps {
        private static final long[] EMPTY = new long[0];
        private long[] ring = EMPTY;
        private int head;
        private int size;

        void add(long value) {
            if (size == ring.length) {
                long[] grown = new long[Math.max(4, ring.length * 2)];
                for (int i = 0; i < size; i++) {
                    grown[i] = ring[(head + i) % ring.length];
                }
                ring = grown;
                head = 0;
            }
            ring[(head + size) % ring.length] = value;
            size++;
        }

        /** The oldest value, removed; 0 when there is none. */
        long poll() {
            if (size == 0) {
                return 0;
            }
            long value = ring[head];
            head = (head + 1) % ring.length;
            size--;
            return value;
        }

        void clear() {
            head = 0;
            size = 0;
        }
    }
}

package dev.lanes.internal.notify;

import dev.lanes.Change;
import dev.lanes.Subscription;
import dev.lanes.internal.telemetry.MetricsReporter;
import dev.lanes.internal.util.Clock;
import dev.lanes.internal.util.LogNames;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
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
 *       and returns at once: it bumps {@link #version} (an atomic, read by anyone), and only when
 *       someone listens queues a {@link Change} and makes sure one delivery task is submitted.
 *   <li>{@link #lock} guards {@link #pending}, {@link #committedAt} and {@link #scheduled}: at
 *       most one delivery task of this database is queued or running at a time ({@code
 *       scheduled}), so deliveries are in version order. A task delivers at most {@link
 *       #BATCH} changes, then submits itself again if more wait, so other databases'
 *       deliveries interleave.
 *   <li>{@link #subscribers} is copy-on-write; adding and removing also run under {@link #lock}
 *       so that {@link #tracking} (read by the lane at the start of every transaction, to decide
 *       whether to record changed tables) always matches whether the list is empty.
 * </ul>
 *
 * <p>Backlog: when {@link #MAX_PENDING} changes wait, a new change is merged into the newest
 * waiting one (newest version, union of tables), so a slow listener costs bounded memory and
 * never slows the writer. A listener that throws is logged and skipped; the others and the
 * database go on.
 *
 * <p>Lag: with a metrics listener installed, each waiting change keeps the time (the runtime's
 * clock) its oldest commit returned, in {@link #committedAt} beside {@link #pending} (a merged
 * change keeps the older time); each delivery to a subscriber reports the lag since then, just
 * before the subscriber's callback runs. The times live in a ring of longs, so stamping a
 * commit allocates nothing once the ring has grown to the backlog's size.
 */
public final class ChangeNotifier implements CommitObserver {
    private static final Logger log = LoggerFactory.getLogger(LogNames.NOTIFY);

    /** Changes waiting for delivery before new ones are merged into the newest. */
    static final int MAX_PENDING = 1024;
    /** Changes one delivery task hands out before giving the dispatcher to other databases. */
    static final int BATCH = 64;

    private final String name;
    private final ChangeDispatcher dispatcher;
    private final Clock clock;
    private final MetricsReporter metrics;
    private final AtomicLong version = new AtomicLong();
    private final CopyOnWriteArrayList<Listener> subscribers = new CopyOnWriteArrayList<>();
    private volatile boolean tracking;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final ArrayDeque<Change> pending = new ArrayDeque<>();
    /** The commit time of each change in {@link #pending}, in the same order; metrics only. */
    private final Stamps committedAt = new Stamps();
    private boolean scheduled;

    public ChangeNotifier(String name, ChangeDispatcher dispatcher, Clock clock,
            MetricsReporter metrics) {
        this.name = name;
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** The current change version: how many commits that changed rows happened since open. */
    public long version() {
        return version.get();
    }

    @Override
    public boolean tracksTables() {
        return tracking;
    }

    @Override
    public void committed(Set<String> tables) {
        long v = version.incrementAndGet();
        if (!tracking) {
            return;
        }
        boolean stamped = metrics.enabled();
        long now = stamped ? clock.nanoTime() : 0;
        boolean submit = false;
        lock.lock();
        try {
            if (pending.size() >= MAX_PENDING) {
                Change newest = pending.pollLast();
                Set<String> union = new HashSet<>(newest.tables());
                union.addAll(tables);
                pending.addLast(new Change(v, union)); // keeps the older commit's time
            } else {
                pending.addLast(new Change(v, tables));
                if (stamped) {
                    committedAt.add(now);
                }
            }
            if (!scheduled) {
                scheduled = true;
                submit = true;
            }
        } finally {
            lock.unlock();
        }
        if (submit) {
            submitDelivery();
        }
    }

    private void submitDelivery() {
        if (!dispatcher.submit(this::deliver)) {
            lock.lock();
            try {
                pending.clear(); // the runtime is closed: nobody is left to deliver to
                committedAt.clear();
                scheduled = false;
            } finally {
                lock.unlock();
            }
        }
    }

    /** A delivery task, on the dispatcher thread: up to {@link #BATCH} changes, in order. */
    private void deliver() {
        boolean stamped = metrics.enabled();
        for (int i = 0; i < BATCH; i++) {
            Change change;
            long committed = 0;
            lock.lock();
            try {
                change = pending.pollFirst();
                if (change == null) {
                    scheduled = false;
                    return;
                }
                if (stamped) {
                    committed = committedAt.poll();
                }
            } finally {
                lock.unlock();
            }
            for (Listener s : subscribers) {
                s.deliver(change, stamped, committed);
            }
        }
        lock.lock();
        try {
            if (pending.isEmpty()) {
                scheduled = false;
                return;
            }
        } finally {
            lock.unlock();
        }
        submitDelivery(); // more waits: queue behind other databases' deliveries
    }

    /** Registers a listener for the changes committed from now on. */
    public Subscription subscribe(Consumer<Change> listener) {
        Objects.requireNonNull(listener, "listener");
        lock.lock();
        try {
            Listener s = new Listener(listener, version.get());
            subscribers.add(s);
            tracking = true;
            return s;
        } finally {
            lock.unlock();
        }
    }

    private void unsubscribe(Listener s) {
        lock.lock();
        try {
            subscribers.remove(s);
            tracking = !subscribers.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Subscribers now; for tests and diagnostics. */
    int subscribers() {
        return subscribers.size();
    }

    /** One subscription; delivers only changes newer than its start. */
    private final class Listener implements Subscription {
        private final Consumer<Change> listener;
        private final long startVersion;
        private volatile boolean active = true;

        Listener(Consumer<Change> listener, long startVersion) {
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
                unsubscribe(this);
            }
        }

        @Override
        public String toString() {
            return "Subscription[" + name + ", " + (active ? "active" : "closed") + "]";
        }
    }

    /** A queue of longs in a ring that doubles when full; guarded by the notifier's lock. */
    private static final class Stamps {
        private long[] ring = new long[0];
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

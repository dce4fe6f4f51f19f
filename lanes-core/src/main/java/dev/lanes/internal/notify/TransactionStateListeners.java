package dev.lanes.internal.notify;

import dev.lanes.Subscription;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.VarHandles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one database's interactive-transaction state: told, in order, each time a
 * transaction opens ({@code true}) or ends ({@code false}), on the runtime's notification
 * thread, never the writer's. A listener that throws is logged and affects nothing else.
 *
 * <p>Thread-safe: the list is copy-on-write, made by the first {@link #subscribe} (most
 * databases never have a listener, and hold no list) and kept from then on; {@link #listeners}
 * is volatile and set once by compare-and-set ({@link #LISTENERS}), so whoever reads it sees the
 * list whole. {@link #changed} only queues a delivery, so the writer never waits for a listener.
 * Deliveries of one database run in the order they were queued, since the dispatcher has one
 * thread.
 */
public final class TransactionStateListeners {
    private static final Logger log = LoggerFactory.getLogger(LogNames.NOTIFY);
    private static final VarHandle LISTENERS =
            VarHandles.field(MethodHandles.lookup(), "listeners", CopyOnWriteArrayList.class);

    private final String name;
    private final ChangeDispatcher dispatcher;
    /** Null until the first subscription. */
    private volatile CopyOnWriteArrayList<Listener> listeners;

    public TransactionStateListeners(String name, ChangeDispatcher dispatcher) {
        this.name = name;
        this.dispatcher = dispatcher;
    }

    public Subscription subscribe(Consumer<Boolean> listener) {
        CopyOnWriteArrayList<Listener> list =
                VarHandles.getOrSet(LISTENERS, this, CopyOnWriteArrayList::new);
        Listener l = new Listener(list, listener);
        list.add(l);
        return l;
    }

    /** A transaction opened or ended: tells the listeners, on the notification thread. */
    public void changed(boolean open) {
        CopyOnWriteArrayList<Listener> list = listeners;
        if (list == null || list.isEmpty()) {
            return;
        }
        dispatcher.submit(() -> {
            for (Listener l : list) {
                try {
                    l.listener.accept(open);
                } catch (RuntimeException e) {
                    log.warn("{}: a transaction-state listener failed; ignored", name, e);
                }
            }
        });
    }

    private static final class Listener implements Subscription {
        final CopyOnWriteArrayList<Listener> list;
        final Consumer<Boolean> listener;

        Listener(CopyOnWriteArrayList<Listener> list, Consumer<Boolean> listener) {
            this.list = list;
            this.listener = listener;
        }

        @Override
        public boolean isActive() {
            return list.contains(this);
        }

        @Override
        public void close() {
            list.remove(this);
        }
    }
}

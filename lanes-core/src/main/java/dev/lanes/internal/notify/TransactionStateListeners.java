package dev.lanes.internal.notify;

import dev.lanes.Subscription;
import dev.lanes.internal.util.LogNames;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one database's interactive-transaction state: told, in order, each time a
 * transaction opens ({@code true}) or ends ({@code false}), on the runtime's notification
 * thread, never the writer's. A listener that throws is logged and affects nothing else.
 *
 * <p>Thread-safe: the list is copy-on-write; {@link #changed} only queues a delivery, so the
 * writer never waits for a listener. Deliveries of one database run in the order they were
 * queued, since the dispatcher has one thread.
 */
public final class TransactionStateListeners {
    private static final Logger log = LoggerFactory.getLogger(LogNames.NOTIFY);

    private final String name;
    private final ChangeDispatcher dispatcher;
    private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();

    public TransactionStateListeners(String name, ChangeDispatcher dispatcher) {
        this.name = name;
        this.dispatcher = dispatcher;
    }

    public Subscription subscribe(Consumer<Boolean> listener) {
        Listener l = new Listener(listener);
        listeners.add(l);
        return l;
    }

    /** A transaction opened or ended: tells the listeners, on the notification thread. */
    public void changed(boolean open) {
        if (listeners.isEmpty()) {
            return;
        }
        dispatcher.submit(() -> {
            for (Listener l : listeners) {
                try {
                    l.listener.accept(open);
                } catch (RuntimeException e) {
                    log.warn("{}: a transaction-state listener failed; ignored", name, e);
                }
            }
        });
    }

    private final class Listener implements Subscription {
        final Consumer<Boolean> listener;

        Listener(Consumer<Boolean> listener) {
            this.listener = listener;
        }

        @Override
        public boolean isActive() {
            return listeners.contains(this);
        }

        @Override
        public void close() {
            listeners.remove(this);
        }
    }
}

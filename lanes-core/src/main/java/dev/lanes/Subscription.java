package dev.lanes;

/**
 * A registration made by {@link Database#onChange}. Closing it stops later deliveries: once
 * {@link #close()} returned, the listener is called no more, except for a delivery that was
 * already running on the dispatcher thread at that moment. Closing is idempotent and may be done
 * from inside the listener.
 */
public interface Subscription extends AutoCloseable {

    /** Whether the subscription still receives changes. */
    boolean isActive();

    /** Stops deliveries to this subscription's listener. Idempotent. */
    @Override
    void close();
}

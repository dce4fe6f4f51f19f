package dev.lanes.internal.reader;

import dev.lanes.LanesException;

/** Told, after the lock is released, how an asynchronous admission ended. */
interface AsyncAdmission {
    /** The read got a slot; it must {@link ReaderSet#release} the lease whatever happens. */
    void granted(Lease lease);

    /** The read will not get a slot; it never ran. */
    void refused(LanesException failure);
}

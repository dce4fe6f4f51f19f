package dev.lanes;

import dev.lanes.internal.file.LeaseProbe;
import dev.lanes.internal.file.LeaseSlot;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The files Lanes keeps beside a database, for tools that look at a database without opening it
 * (such as {@code lanes inspect}).
 *
 * <p>A file database's lease is an exclusive OS record lock on one byte of a lock file in
 * {@value #LOCK_DIRECTORY} beside it; the databases of a directory share at most {@value
 * #LOCK_FILES} lock files, so a directory costs at most that many descriptors however many of its
 * databases are open.
 */
public final class DatabaseFiles {
    /** The directory, beside the databases, that holds their lock files. */
    public static final String LOCK_DIRECTORY = LeaseSlot.DIRECTORY;

    /** How many lock files the leases of one directory spread over: its most descriptors. */
    public static final int LOCK_FILES = LeaseSlot.FILES;

    private DatabaseFiles() {}

    /**
     * Finds out whether a runtime holds the lease of {@code database}, an existing file, without
     * ever holding it: an owner opening the database at the same moment is never refused because
     * of the probe, and a lease this JVM holds is never dropped by it.
     *
     * @throws IOException if the database or its lock file cannot be read
     */
    public static LeaseStatus lease(Path database) throws IOException {
        return LeaseProbe.probe(database);
    }
}

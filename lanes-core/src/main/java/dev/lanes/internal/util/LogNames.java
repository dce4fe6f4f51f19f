package dev.lanes.internal.util;

/**
 * The runtime's logger names, one per concept rather than per class, so that a user's logging
 * configuration (and a test that reads the log) does not depend on where a class lives.
 * docs/operations.md lists them (lanes-examples' DocsSpeakOfTheProductTest checks it).
 */
public final class LogNames {
    /** Writer lanes: poisoning, failed turns, slow writes, corked writes lost. */
    public static final String WRITER = "dev.lanes.writer";
    /** Reads: readers left dirty, long snapshots. */
    public static final String READS = "dev.lanes.reads";
    /** The shared pool: saturation, turns that escaped with an error. */
    public static final String POOL = "dev.lanes.pool";
    /** Opening, closing, idle release and eviction of databases. */
    public static final String LIFECYCLE = "dev.lanes.lifecycle";
    /** Leases, identity checks, the disk reserve, checkpoints and backups: the database files. */
    public static final String FILES = "dev.lanes.files";
    /** Change notifications and transaction-state listeners. */
    public static final String NOTIFY = "dev.lanes.notify";
    /** Failures of the metrics listener. */
    public static final String METRICS = "dev.lanes.metrics";
    /** The JDBC data source. */
    public static final String JDBC = "dev.lanes.jdbc";

    private LogNames() {}
}

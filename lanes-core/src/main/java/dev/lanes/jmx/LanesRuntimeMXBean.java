package dev.lanes.jmx;

import java.util.Map;

/**
 * The management view of one {@link dev.lanes.Lanes} runtime: its shared pool of threads, its
 * connections and its databases, as {@link dev.lanes.RuntimeDiagnostics} reports them. Named
 * {@code dev.lanes:type=Runtime,name=<runtime>}; see the {@linkplain dev.lanes.jmx package}.
 */
public interface LanesRuntimeMXBean {
    /** The runtime's name ({@link dev.lanes.Lanes.Builder#name(String)}). */
    String getName();

    /** Pool threads alive now. */
    int getLiveThreads();

    /** The cap on pool threads ({@link dev.lanes.Lanes.Builder#maxThreads(int)}). */
    int getMaxThreads();

    /** Pool threads running a turn now. */
    int getBusyThreads();

    /** Foreground databases waiting for a pool thread now. */
    int getRunnableForeground();

    /** Background databases waiting for a pool thread now. */
    int getRunnableBackground();

    /** Databases open in the runtime (opening or closing ones included). */
    int getOpenDatabases();

    /** SQLite connections open in the runtime now, of every kind. */
    int getOpenConnections();

    /**
     * The connection budget ({@link dev.lanes.Lanes.Builder#maxOpenConnections(int)}); 0 when
     * there is no cap.
     */
    int getConnectionBudget();

    /**
     * How many connections the runtime keeps open under the budget now: the budget less a
     * sixteenth while connections are reused, fewer while they churn (each SQLite open walks a
     * list of every open database file); equal to the budget when it is 0 or too small to hold
     * a reserve.
     */
    int getConnectionTarget();

    /** The longest a database has waited for a pool thread since the runtime started, in ms. */
    long getLongestQueueWaitMillis();

    /** Stretches in which every thread was busy over a second while work waited. */
    long getSaturationStretches();

    /** Whether such a stretch is going on now. */
    boolean isSaturated();

    /** The SQLite library's version ({@link dev.lanes.SqliteInfo#sqliteVersion()}). */
    String getSqliteVersion();

    /** The sqlite-jdbc driver's version ({@link dev.lanes.SqliteInfo#driverVersion()}). */
    String getSqliteJdbcVersion();

    /**
     * Whether every checkpoint runs on the writer connection because SQLite has the WAL-reset
     * bug ({@link dev.lanes.SqliteInfo#walResetMitigation()}).
     */
    boolean isWalResetMitigation();

    /**
     * The open databases by state: one entry for each {@link dev.lanes.DatabaseState} name
     * ({@code RUNNING}, {@code CLOSING}, {@code CLOSED}, {@code DEAD}), zeros included, and
     * {@code POISONED}: the running ones whose writer is poisoned (counted in {@code RUNNING}
     * too).
     */
    Map<String, Integer> getDatabasesByState();

    /**
     * The names of the open databases, sorted, from {@code offset}, at most {@code limit} of
     * them: a page of what may be a very long list.
     *
     * @throws IllegalArgumentException when {@code offset} or {@code limit} is negative
     */
    String[] databaseNames(int offset, int limit);
}

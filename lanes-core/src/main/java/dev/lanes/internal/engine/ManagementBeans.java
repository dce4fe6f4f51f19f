package dev.lanes.internal.engine;

import dev.lanes.CheckpointResult;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.Database;
import dev.lanes.DatabaseState;
import dev.lanes.InvalidRequestException;
import dev.lanes.LanesException;
import dev.lanes.ReaderDiagnostics;
import dev.lanes.internal.util.LogNames;
import dev.lanes.internal.util.PathCopy;
import dev.lanes.jmx.LanesDatabaseMXBean;
import dev.lanes.jmx.LanesObjectNames;
import dev.lanes.jmx.LanesRuntimeMXBean;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management beans of one runtime (see {@link dev.lanes.jmx}): the runtime's bean from
 * {@link #start} to {@link #close}, and one bean per open database from its open ({@link
 * #opened}) to the close of its connections ({@link #closed}), at most {@link #maxDatabases} at a
 * time. A name the server holds already is skipped with a warning; when it is the runtime's own,
 * none of its databases registers either.
 *
 * <p>Concurrency: {@link #lock} guards {@link #databases}, {@link #runtimeRegistered}, {@link
 * #capWarned} and {@link #closed}, and is held across the server's register and unregister
 * calls, so that a database's bean never outlives its close nor the runtime's; no Lanes lock is
 * taken while it is held. The beans read the runtime and
 * the databases on the caller's thread, through their diagnostics.
 */
final class ManagementBeans {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);

    private final LanesRuntime runtime;
    private final String runtimeName;
    private final MBeanServer server;
    private final int maxDatabases;
    private final ObjectName runtimeObjectName;

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final Map<Database, ObjectName> databases = new HashMap<>();
    private boolean runtimeRegistered;
    private boolean capWarned;
    private boolean closed;

    ManagementBeans(LanesRuntime runtime, String runtimeName, MBeanServer server,
            int maxDatabases) {
        this.runtime = runtime;
        this.runtimeName = runtimeName;
        this.server = server;
        this.maxDatabases = maxDatabases;
        this.runtimeObjectName = LanesObjectNames.runtime(runtimeName);
    }

    /** Registers the runtime's bean; a name already taken is skipped with a warning. */
    void start() {
        lock.lock();
        try {
            runtimeRegistered = register(new StandardMBean(new RuntimeBean(),
                    LanesRuntimeMXBean.class, true), runtimeObjectName,
                    "another runtime of this name registered its beans first; this runtime and "
                    + "its databases register none. Give each runtime its own name");
        } finally {
            lock.unlock();
        }
    }

    /** A database opened, named {@code dbName}: registers its bean, unless the cap is reached. */
    void opened(Database db, String dbName) {
        lock.lock();
        try {
            if (closed || !runtimeRegistered || databases.containsKey(db)) {
                return;
            }
            if (databases.size() >= maxDatabases) {
                if (!capWarned) {
                    capWarned = true;
                    log.warn("{}: {} databases have management beans, the cap "
                            + "(maxDatabaseMBeans); {} and databases opened later have none "
                            + "while the cap is reached. Raise maxDatabaseMBeans to see more",
                            runtimeName, maxDatabases, dbName);
                }
                return;
            }
            ObjectName name = LanesObjectNames.database(runtimeName, dbName);
            if (register(new StandardMBean(new DatabaseBean(db, dbName), LanesDatabaseMXBean.class,
                    true), name, "another bean has this name")) {
                databases.put(db, name);
            }
        } finally {
            lock.unlock();
        }
    }

    /** A database's connections closed: its bean goes. */
    void closed(Database db) {
        lock.lock();
        try {
            ObjectName name = databases.remove(db);
            if (name != null) {
                unregister(name);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The runtime closed (or its handle was lost): every bean goes, and none registers again. */
    void close() {
        lock.lock();
        try {
            closed = true;
            for (ObjectName name : databases.values()) {
                unregister(name);
            }
            databases.clear();
            if (runtimeRegistered) {
                runtimeRegistered = false;
                unregister(runtimeObjectName);
            }
        } finally {
            lock.unlock();
        }
    }

    // guarded by lock
    private boolean register(Object bean, ObjectName name, String ifTaken) {
        try {
            server.registerMBean(bean, name);
            return true;
        } catch (InstanceAlreadyExistsException e) {
            log.warn("{}: the management bean {} is registered already ({}); skipped",
                    runtimeName, name, ifTaken);
            return false;
        } catch (JMException | RuntimeException e) {
            log.warn("{}: registering the management bean {} failed; skipped", runtimeName,
                    name, e);
            return false;
        }
    }

    // guarded by lock
    private void unregister(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // unregistered by someone else already
        } catch (JMException | RuntimeException e) {
            log.warn("{}: unregistering the management bean {} failed", runtimeName, name, e);
        }
    }

    // ------------------------------------------------------------------ the beans

    /**
     * A standard exception for a JMX client, which may not have Lanes' classes: the message is
     * the code and the Lanes message, and no cause is attached.
     *
     * @param argument whether an {@link InvalidRequestException} means the argument was refused
     */
    private static RuntimeException forClient(LanesException e, boolean argument) {
        String message = e.code() + ": " + e.getMessage();
        return argument && e instanceof InvalidRequestException
                ? new IllegalArgumentException(message) : new IllegalStateException(message);
    }

    private final class RuntimeBean implements LanesRuntimeMXBean {
        @Override
        public String getName() {
            return runtimeName;
        }

        @Override
        public int getLiveThreads() {
            return runtime.diagnostics().liveThreads();
        }

        @Override
        public int getMaxThreads() {
            return runtime.diagnostics().maxThreads();
        }

        @Override
        public int getBusyThreads() {
            return runtime.diagnostics().busyThreads();
        }

        @Override
        public int getRunnableForeground() {
            return runtime.diagnostics().runnableForeground();
        }

        @Override
        public int getRunnableBackground() {
            return runtime.diagnostics().runnableBackground();
        }

        @Override
        public int getOpenDatabases() {
            return runtime.diagnostics().openDatabases();
        }

        @Override
        public int getOpenConnections() {
            return runtime.diagnostics().openConnections();
        }

        @Override
        public int getConnectionBudget() {
            return runtime.budget().max();
        }

        @Override
        public int getConnectionTarget() {
            return runtime.budget().target();
        }

        @Override
        public long getLongestQueueWaitMillis() {
            return runtime.diagnostics().longestQueueWait().toMillis();
        }

        @Override
        public long getSaturationStretches() {
            return runtime.diagnostics().saturationStretches();
        }

        @Override
        public boolean isSaturated() {
            return runtime.diagnostics().saturated();
        }

        @Override
        public String getSqliteVersion() {
            return runtime.diagnostics().sqlite().sqliteVersion();
        }

        @Override
        public String getSqliteJdbcVersion() {
            return runtime.diagnostics().sqlite().driverVersion();
        }

        @Override
        public boolean isWalResetMitigation() {
            return runtime.diagnostics().sqlite().walResetMitigation();
        }

        @Override
        public Map<String, Integer> getDatabasesByState() {
            Map<DatabaseState, Integer> counts = new EnumMap<>(DatabaseState.class);
            for (DatabaseState state : DatabaseState.values()) {
                counts.put(state, 0);
            }
            int poisoned = 0;
            for (DatabaseImpl db : runtime.openNow()) {
                DatabaseState state = db.state();
                counts.merge(state, 1, Integer::sum);
                if (state == DatabaseState.RUNNING && db.lane().poisoned()) {
                    poisoned++;
                }
            }
            for (LanesRuntime.Attached a : runtime.attachedNow()) {
                DatabaseState state = a.database().state();
                counts.merge(state, 1, Integer::sum);
                if (state == DatabaseState.RUNNING
                        && a.database().diagnostics().writer().poisoned()) {
                    poisoned++;
                }
            }
            Map<String, Integer> byName = new LinkedHashMap<>();
            counts.forEach((state, n) -> byName.put(state.name(), n));
            byName.put("POISONED", poisoned);
            return byName;
        }

        @Override
        public String[] databaseNames(int offset, int limit) {
            if (offset < 0 || limit < 0) {
                throw new IllegalArgumentException("offset and limit must not be negative, were "
                        + offset + " and " + limit);
            }
            List<String> names = new ArrayList<>();
            for (DatabaseImpl db : runtime.openNow()) {
                names.add(db.name());
            }
            for (LanesRuntime.Attached a : runtime.attachedNow()) {
                names.add(a.name());
            }
            Collections.sort(names);
            int from = Math.min(offset, names.size());
            int to = (int) Math.min((long) from + limit, names.size());
            return names.subList(from, to).toArray(new String[0]);
        }
    }

    private static final class DatabaseBean implements LanesDatabaseMXBean {
        private final Database db;
        private final String name;

        DatabaseBean(Database db, String name) {
            this.db = db;
            this.name = name;
        }

        private DatabaseDiagnostics d() {
            return db.diagnostics();
        }

        private ReaderDiagnostics readers() {
            return db.diagnostics().readers();
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getPath() {
            return PathCopy.of(db.path()).toString(); // the kept path is asked nothing
        }

        @Override
        public String getState() {
            return db.state().name();
        }

        @Override
        public boolean isWriterPoisoned() {
            return d().writer().poisoned();
        }

        @Override
        public String getPoisonCause() {
            return d().writer().poisonCause().orElse(null);
        }

        @Override
        public String getDeadCause() {
            return d().deadCause().orElse(null);
        }

        @Override
        public boolean isBackground() {
            return d().writer().background();
        }

        @Override
        public boolean isCorked() {
            return d().writer().corked();
        }

        @Override
        public int getQueuedWrites() {
            return d().writer().queued();
        }

        @Override
        public int getWriteQueueCapacity() {
            return d().writer().capacity();
        }

        @Override
        public long getCommittedWrites() {
            return d().writer().counters().committed();
        }

        @Override
        public long getFailedWrites() {
            return d().writer().counters().failed();
        }

        @Override
        public long getGroupsCommitted() {
            return d().writer().counters().groupsCommitted();
        }

        @Override
        public long getOverloads() {
            return d().writer().counters().overloads();
        }

        @Override
        public long getReplays() {
            return d().writer().counters().replays();
        }

        @Override
        public long getUnknownOutcomes() {
            return d().writer().counters().unknownOutcomes();
        }

        @Override
        public long getBusyRefusals() {
            return d().writer().counters().busyRefusals();
        }

        @Override
        public boolean isTransactionOpen() {
            return d().writer().transaction().isPresent();
        }

        @Override
        public long getTransactionAgeMillis() {
            return d().writer().transaction().map(t -> t.age().toMillis()).orElse(0L);
        }

        @Override
        public String getCheckpointMode() {
            return d().checkpoints().mode().name();
        }

        @Override
        public long getWalBytes() {
            return d().checkpoints().walBytes();
        }

        @Override
        public long getCheckpointsCompleted() {
            return d().checkpoints().completed();
        }

        @Override
        public long getCheckpointFailures() {
            return d().checkpoints().failures();
        }

        @Override
        public String getLastCheckpoint() {
            DatabaseDiagnostics.Checkpoints c = d().checkpoints();
            if (c.last().isEmpty()) {
                return null;
            }
            return c.lastMode().orElse("?") + c.lastAt().map(at -> " at " + at).orElse("")
                    + ": " + describe(c.last().get());
        }

        @Override
        public int getReaders() {
            return readers().readers();
        }

        @Override
        public int getReadersAvailable() {
            return readers().availableSlots();
        }

        @Override
        public int getReadersWaiting() {
            return readers().waiting();
        }

        @Override
        public long getReaderCheckoutTimeouts() {
            return readers().checkoutTimeouts();
        }

        @Override
        public long getLongestReaderHoldMillis() {
            return readers().longestHold().toMillis();
        }

        @Override
        public String checkpoint() {
            try {
                return describe(db.checkpoint());
            } catch (LanesException e) {
                throw forClient(e, false);
            }
        }

        @Override
        public void backup(String path) {
            Path target;
            try {
                target = Path.of(path);
            } catch (InvalidPathException | NullPointerException e) {
                throw new IllegalArgumentException("not a valid path: " + path);
            }
            try {
                db.backup(target);
            } catch (LanesException e) {
                throw forClient(e, true);
            }
        }

        private static String describe(CheckpointResult r) {
            return "busy=" + r.busy() + ", walFrames=" + r.walFrames() + ", checkpointedFrames="
                    + r.checkpointedFrames();
        }
    }
}

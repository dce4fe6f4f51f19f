package dev.lanes.spring.actuate;

import dev.lanes.Database;
import dev.lanes.DatabaseDiagnostics;
import dev.lanes.DatabaseState;
import dev.lanes.RuntimeDiagnostics;
import dev.lanes.spring.LanesDatabases;
import dev.lanes.spring.TenantDatabases;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code lanes} health of the application, bounded in size however many databases it has:
 *
 * <ul>
 *   <li>{@code DOWN} when the primary or a named database is {@link DatabaseState#DEAD} (its file
 *       lost or swapped underneath, a connection that cannot open) or its writer is poisoned (a
 *       rollback or commit it could not verify); tenants in that state are counted and listed,
 *       but one tenant does not take the application down;
 *   <li>{@code OUT_OF_SERVICE} when the free space of a database's volume is at or below its
 *       {@code disk-reserve}, where writes are refused ({@code CAPACITY_FLOOR}); free space is
 *       sampled at most every {@value #DISK_SAMPLE_SECONDS} seconds per directory;
 *   <li>else {@code UP}.
 * </ul>
 *
 * <p>Details: the runtime's figures (with {@code sqlite}: SQLite's and sqlite-jdbc's versions, and
 * whether checkpoints are confined to the writer against SQLite's WAL-reset bug, which a driver
 * upgrade ends), counts of databases and tenants and of the unhealthy ones,
 * and the unhealthy databases themselves, at most {@value #MAX_LISTED} of them named (the rest
 * counted in {@code unhealthyNotListed}). Healthy databases are only counted. A health request
 * reads every open tenant's state and diagnostics (no SQL, no file-system call).
 */
public final class LanesHealthIndicator implements HealthIndicator {
    /** Unhealthy databases named in the details at most. */
    public static final int MAX_LISTED = 20;
    /** How often the free space of a directory is sampled at most. */
    public static final int DISK_SAMPLE_SECONDS = 5;
    private static final int MAX_CAUSE = 300;

    private final LanesDatabases databases;
    private final DiskFloor diskFloor;

    /** The indicator over the application's databases. */
    public LanesHealthIndicator(LanesDatabases databases) {
        this(databases, new DiskFloor(TimeUnit.SECONDS.toNanos(DISK_SAMPLE_SECONDS),
                System::nanoTime));
    }

    LanesHealthIndicator(LanesDatabases databases, DiskFloor disk) {
        this.databases = Objects.requireNonNull(databases, "databases");
        this.diskFloor = disk;
    }

    @Override
    public Health health() {
        Findings findings = new Findings();
        databases.primary().ifPresent(db -> findings.critical(LanesDatabases.PRIMARY, "primary",
                db, databases.diskReserveBytes(LanesDatabases.PRIMARY)));
        databases.named().forEach((name, db) -> findings.critical(name, "named", db,
                databases.diskReserveBytes(name)));
        databases.tenants().ifPresent(findings::tenants);

        Status status = findings.down ? Status.DOWN
                : findings.outOfService ? Status.OUT_OF_SERVICE : Status.UP;
        RuntimeDiagnostics runtime = databases.runtime().diagnostics();
        Map<String, Object> runtimeDetails = new LinkedHashMap<>();
        runtimeDetails.put("openDatabases", runtime.openDatabases());
        runtimeDetails.put("openConnections", runtime.openConnections());
        runtimeDetails.put("liveThreads", runtime.liveThreads());
        runtimeDetails.put("busyThreads", runtime.busyThreads());
        runtimeDetails.put("maxThreads", runtime.maxThreads());
        runtimeDetails.put("saturated", runtime.saturated());
        Map<String, Object> sqlite = new LinkedHashMap<>();
        sqlite.put("version", runtime.sqlite().sqliteVersion());
        sqlite.put("driverVersion", runtime.sqlite().driverVersion());
        sqlite.put("walResetMitigation", runtime.sqlite().walResetMitigation());
        runtimeDetails.put("sqlite", sqlite);
        Health.Builder health = Health.status(status)
                .withDetail("runtime", runtimeDetails)
                .withDetail("databases", findings.databases)
                .withDetail("tenantsOpen", findings.tenantsOpen)
                .withDetail("dead", findings.dead)
                .withDetail("writersPoisoned", findings.poisoned);
        if (findings.outOfService) {
            health.withDetail("belowDiskFloor", findings.belowFloor);
        }
        if (!findings.listed.isEmpty()) {
            health.withDetail("unhealthy", findings.listed);
            health.withDetail("unhealthyNotListed", findings.notListed);
        }
        return health.build();
    }

    /** What one health request found; used by one thread. */
    private final class Findings {
        int databases;
        int tenantsOpen;
        int dead;
        int poisoned;
        int notListed;
        boolean down;
        final List<Map<String, Object>> listed = new ArrayList<>();
        final Map<String, Map<String, Object>> belowFloor = new LinkedHashMap<>();
        boolean outOfService;

        void critical(String name, String kind, Database db, long reserve) {
            databases++;
            if (check(name, kind, db)) {
                down = true;
            }
            checkDisk(db.path().getParent(), reserve);
        }

        void tenants(TenantDatabases tenants) {
            tenants.forEachOpen((id, db) -> {
                tenantsOpen++;
                check(id, "tenant", db);
            });
            checkDisk(tenants.directory(), tenants.options().diskReserveBytes());
        }

        /** Whether the database is dead or poisoned; counts and lists it then. */
        private boolean check(String name, String kind, Database db) {
            // Database.state(), not diagnostics().state(): only the former says DEAD after an
            // identity mismatch (the lane itself is still running then)
            DatabaseState state = db.state();
            if (state == DatabaseState.CLOSED) {
                return false;
            }
            DatabaseDiagnostics d = db.diagnostics();
            boolean isDead = state == DatabaseState.DEAD;
            if (!isDead && !d.writer().poisoned()) {
                return false;
            }
            if (isDead) {
                dead++;
            } else {
                poisoned++;
            }
            if (listed.size() < MAX_LISTED) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("name", name);
                entry.put("kind", kind);
                entry.put("state", state.name());
                entry.put("writerPoisoned", d.writer().poisoned());
                entry.put("cause", shorten(isDead ? d.deadCause().orElse(null)
                        : d.writer().poisonCause().orElse(null)));
                listed.add(entry);
            } else {
                notListed++;
            }
            return true;
        }

        private void checkDisk(Path directory, long reserve) {
            if (directory == null || reserve <= 0) {
                return;
            }
            long usable = diskFloor.usableBytes(directory);
            if (usable < 0 || usable > reserve) {
                return;
            }
            Map<String, Object> entry = belowFloor.get(directory.toString());
            if (entry == null && belowFloor.size() < MAX_LISTED) {
                entry = new LinkedHashMap<>();
                belowFloor.put(directory.toString(), entry);
            }
            if (entry != null) {
                entry.put("usableBytes", usable);
                entry.merge("reserveBytes", reserve, (a, b) -> Math.max((Long) a, (Long) b));
            }
            outOfService = true;
        }
    }

    private static String shorten(String cause) {
        if (cause == null || cause.length() <= MAX_CAUSE) {
            return cause;
        }
        return cause.substring(0, MAX_CAUSE) + "…";
    }
}

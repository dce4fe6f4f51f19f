package dev.lanes.spring;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The databases the starter opened, by the names the health indicator and the {@code lanes}
 * actuator endpoint show: {@value #PRIMARY} for {@code lanes.datasource}, each {@code
 * lanes.databases.<name>} by its name, and the tenants of {@link TenantDatabases}. Immutable; the
 * tenants it holds open and close over time.
 */
public final class LanesDatabases {
    /** The name of the primary database ({@code lanes.datasource}). */
    public static final String PRIMARY = "primary";

    private final Lanes runtime;
    private final Database primary;
    private final Map<String, Database> named;
    private final TenantDatabases tenants;
    private final Map<String, Long> diskReserves;

    /**
     * @param diskReserves {@code diskReserveBytes} of the primary ({@value #PRIMARY}) and the
     *     named databases, by name
     */
    LanesDatabases(Lanes runtime, Database primary, Map<String, Database> named,
            TenantDatabases tenants, Map<String, Long> diskReserves) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.primary = primary;
        this.named = Collections.unmodifiableMap(new LinkedHashMap<>(named));
        this.tenants = tenants;
        this.diskReserves = Map.copyOf(diskReserves);
    }

    /** The runtime every one of them runs on. */
    public Lanes runtime() {
        return runtime;
    }

    /** The primary database, when {@code lanes.datasource.path} is set. */
    public Optional<Database> primary() {
        return Optional.ofNullable(primary);
    }

    /** The named databases ({@code lanes.databases.*}), in the order the properties list them. */
    public Map<String, Database> named() {
        return named;
    }

    /** The tenants, when {@code lanes.tenants.directory} is set. */
    public Optional<TenantDatabases> tenants() {
        return Optional.ofNullable(tenants);
    }

    /**
     * The disk reserve the primary ({@value #PRIMARY}) or a named database was opened with
     * ({@link dev.lanes.DatabaseOptions#diskReserveBytes()}); 0 for an unknown name.
     */
    public long diskReserveBytes(String name) {
        return diskReserves.getOrDefault(name, 0L);
    }

    /** The primary ({@value #PRIMARY}) or a named database by its name. */
    public Optional<Database> find(String name) {
        if (PRIMARY.equals(name)) {
            return primary();
        }
        return Optional.ofNullable(named.get(name));
    }
}

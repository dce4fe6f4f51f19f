package dev.lanes.spring;

import dev.lanes.Database;
import java.util.List;
import org.flywaydb.core.Flyway;

/**
 * Runs Flyway on a tenant database through its {@link Database#dataSource()}, so every statement
 * goes through the tenant's writer lane. Loaded only when {@code lanes.tenants.migrations} names
 * Flyway locations (and Flyway is there).
 */
final class FlywayTenantMigrator implements TenantMigrator {
    private final String[] locations;
    private final ClassLoader classLoader;

    FlywayTenantMigrator(List<String> locations, ClassLoader classLoader) {
        this.locations = locations.stream().map(String::trim).toArray(String[]::new);
        this.classLoader = classLoader;
    }

    @Override
    public void migrate(String tenant, Database db) {
        try {
            LanesFlyway.baselineFresh(Flyway.configure(classLoader)
                    .dataSource(db.dataSource())
                    .locations(locations))
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            throw new TenantMigrationException(tenant, e);
        }
    }
}

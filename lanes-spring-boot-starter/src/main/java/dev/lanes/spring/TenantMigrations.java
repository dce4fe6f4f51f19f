package dev.lanes.spring;

import dev.lanes.Migrations;
import dev.lanes.WriteOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * Reads {@code lanes.tenants.migrations} into a {@link TenantMigrator}: SQL resources become
 * {@link Migrations} run as one write on the tenant's writer (versions in {@code PRAGMA
 * user_version}), other entries are Flyway locations migrated through the tenant's {@code
 * DataSource}. Everything is read and checked at start-up, so a missing resource or a missing
 * Flyway fails the application's start, naming the property.
 */
final class TenantMigrations {
    static final String PROPERTY = LanesProperties.PREFIX + ".tenants.migrations";
    private static final String FLYWAY = "org.flywaydb.core.Flyway";

    private TenantMigrations() {}

    /** The migrator for these entries; {@code null} when there are none. */
    static TenantMigrator from(List<String> entries, ResourceLoader resources) {
        if (entries.isEmpty()) {
            return null;
        }
        long scripts = entries.stream().filter(TenantMigrations::isScript).count();
        if (scripts == entries.size()) {
            return sqlScripts(entries, resources);
        }
        if (scripts > 0) {
            throw new IllegalArgumentException(PROPERTY + "=" + entries + " mixes SQL resources "
                    + "(ending in .sql) with Flyway locations; use one kind");
        }
        if (!ClassUtils.isPresent(FLYWAY, resources.getClassLoader())) {
            throw new IllegalArgumentException(PROPERTY + "=" + entries + " names Flyway "
                    + "locations, and Flyway is not on the class path: add org.flywaydb:flyway-core,"
                    + " or list SQL resources (each ending in .sql) instead");
        }
        return new FlywayTenantMigrator(entries, resources.getClassLoader());
    }

    private static boolean isScript(String entry) {
        return entry.trim().endsWith(".sql");
    }

    private static TenantMigrator sqlScripts(List<String> entries, ResourceLoader resources) {
        List<String> scripts = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String location = entries.get(i).trim();
            Resource resource = resources.getResource(location);
            try (InputStream in = resource.getInputStream()) {
                scripts.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalArgumentException(PROPERTY + "[" + i + "]=" + location
                        + ": cannot read the SQL resource: " + e.getMessage(), e);
            }
        }
        Migrations migrations;
        try {
            migrations = Migrations.of(scripts);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + ": " + e.getMessage(), e);
        }
        WriteOptions write = WriteOptions.builder().label("lanes.tenant.migrate").build();
        return (tenant, db) -> {
            try {
                db.write(write, migrations);
            } catch (RuntimeException e) {
                throw new TenantMigrationException(tenant, e);
            }
        };
    }
}

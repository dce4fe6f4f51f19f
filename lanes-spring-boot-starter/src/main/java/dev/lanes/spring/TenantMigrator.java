package dev.lanes.spring;

import dev.lanes.Database;

/**
 * Brings a tenant database's schema up to date, once, right after it opened and before anyone
 * else gets it. Implementations fail with {@link TenantMigrationException}.
 */
@FunctionalInterface
interface TenantMigrator {
    void migrate(String tenant, Database db);
}

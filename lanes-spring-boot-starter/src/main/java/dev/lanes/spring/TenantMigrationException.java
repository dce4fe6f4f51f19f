package dev.lanes.spring;

/**
 * A tenant database's migrations ({@code lanes.tenants.migrations}) failed when it first opened.
 * Nothing of the failed migration persisted where the migrations run in one transaction (SQL
 * resources); Flyway records what it applied in its own history table. The database was closed
 * again: the next {@link TenantDatabases#get(String)} of the tenant tries once more.
 */
public final class TenantMigrationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String tenant;

    TenantMigrationException(String tenant, Throwable cause) {
        super("tenant '" + tenant + "': its migrations failed: " + cause.getMessage(), cause);
        this.tenant = tenant;
    }

    /** The tenant whose migrations failed. */
    public String tenant() {
        return tenant;
    }
}

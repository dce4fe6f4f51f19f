package dev.lanes.spring.fleet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Objects;

/**
 * Says which tenant a request is for, so that {@link FleetOwnerFilter} can send it to the node
 * that owns the tenant. A bean of this type replaces the default, {@link #header(String)} of
 * {@code lanes.fleet.web.tenant-header}. It runs after Spring Security's filters (see {@code
 * lanes.fleet.web.order}), so it may read the authenticated principal.
 */
@FunctionalInterface
public interface TenantResolver {

    /**
     * The tenant {@code request} is for.
     *
     * @return the tenant's name, or null (or empty) when the request is for no tenant: the
     *     filter then lets it through untouched
     */
    String resolve(HttpServletRequest request);

    /** The value of the request header {@code name}. */
    static TenantResolver header(String name) {
        Objects.requireNonNull(name, "name");
        return request -> request.getHeader(name);
    }
}

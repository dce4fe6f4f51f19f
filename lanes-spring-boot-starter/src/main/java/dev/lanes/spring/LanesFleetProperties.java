package dev.lanes.spring;

import dev.lanes.fleet.Durability;
import dev.lanes.spring.fleet.ForwardMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code lanes.fleet.*} properties: this application as a node of a fleet ({@code
 * lanes-fleet} on the class path). A setting left unset keeps the {@code Fleet.Builder} default
 * (see {@code docs/fleet.md}); durations take Boot's forms ({@code 5s}, {@code 250ms}).
 *
 * @param enabled whether the starter makes this application a node of the fleet (a {@code Fleet}
 *     bean, unless the application defines its own)
 * @param nodeId this node's id, unique in the fleet: letters, digits, '.', '_', '-' (required)
 * @param address where this node serves requests, for other nodes and the request filter to
 *     send requests to: a URL such as {@code http://10.0.0.5:8080}, or {@code host:port}
 * @param etcd the etcd client URLs, such as {@code http://10.0.0.1:2379} (required)
 * @param name the fleet's name: nodes with the same etcd and name share tenants (default
 *     "default")
 * @param leaseTtl the node lease's TTL, in whole seconds: a dead node's tenants move after about
 *     this long (default 2s)
 * @param safetyMargin how long before the lease could expire commits stop, 0 to half the TTL
 *     (default a quarter of the TTL)
 * @param dataDirectory where this node keeps its tenants' local copies (required)
 * @param litestream the Litestream v0.3 binary (required)
 * @param replicationInterval Litestream's monitor and sync interval (default 200ms)
 * @param snapshotInterval how often Litestream uploads a snapshot of each tenant, which bounds
 *     a restore to about this much of its writes (plus Litestream's checkpoint interval, at
 *     most 1 minute), for uploading the whole database each time; 1s to 24h, no longer than
 *     the retention (default 5m)
 * @param retention how long each replica keeps its snapshots and WAL, at least 1m and the
 *     snapshot interval (default 24h, Litestream's)
 * @param litestreamProcesses Litestream processes sharing this node's tenants (default 8)
 * @param durability when writes are acknowledged: LOCAL or REPLICATED (default LOCAL)
 * @param autoRebalance whether a node that joins gets its tenants by planned moves (default true)
 * @param acquireTimeout how long a request waits for a tenant being acquired here (default 10s)
 * @param moveHold how long a request waits for a tenant moving away before it is sent on
 *     (default 2s)
 * @param replicatedTimeout how long a REPLICATED write waits for its replication (default 10s)
 * @param workers threads that acquire, restore and move tenants in parallel (default 8)
 * @param objectStore the S3-compatible object store of the replicas
 * @param web the request filter that sends requests for other nodes' tenants there
 */
@ConfigurationProperties(LanesFleetProperties.PREFIX)
public record LanesFleetProperties(
        boolean enabled,
        String nodeId,
        String address,
        List<String> etcd,
        String name,
        Duration leaseTtl,
        Duration safetyMargin,
        Path dataDirectory,
        Path litestream,
        Duration replicationInterval,
        Duration snapshotInterval,
        Duration retention,
        Integer litestreamProcesses,
        Durability durability,
        Boolean autoRebalance,
        Duration acquireTimeout,
        Duration moveHold,
        Duration replicatedTimeout,
        Integer workers,
        @DefaultValue ObjectStoreProperties objectStore,
        @DefaultValue Web web) {

    /** The prefix of the properties. */
    public static final String PREFIX = "lanes.fleet";

    /**
     * Checks, when the fleet is on, that what a node needs is set, naming each missing property,
     * so that the binding fails before the node tries to join.
     */
    public LanesFleetProperties {
        etcd = etcd == null ? List.of() : List.copyOf(etcd);
        if (enabled) {
            require(nodeId, "node-id", "this node's id, unique in the fleet");
            require(etcd.isEmpty() ? null : etcd, "etcd", "the etcd client URLs");
            require(dataDirectory, "data-directory", "where the tenants' local copies live");
            require(litestream, "litestream", "the Litestream v0.3 binary");
            require(objectStore.bucket(), "object-store.bucket", "the replicas' bucket");
            require(objectStore.accessKeyId(), "object-store.access-key-id", "the access key");
            require(objectStore.secretAccessKey(), "object-store.secret-access-key",
                    "the secret key");
        }
    }

    private static void require(Object value, String property, String what) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            throw new IllegalArgumentException(PREFIX + "." + property + " is required with "
                    + PREFIX + ".enabled=true: " + what);
        }
    }

    /**
     * The S3-compatible store of the replicas (S3, MinIO, R2, GCS's S3 API).
     *
     * @param endpoint the store's URL, such as {@code http://127.0.0.1:9000}; unset for AWS S3
     * @param bucket the bucket that holds the replicas (required)
     * @param region the region; any name for a store without regions (default us-east-1)
     * @param accessKeyId the access key (required)
     * @param secretAccessKey the secret key (required); never shown by {@link #toString()}
     * @param prefix a key prefix for this fleet inside the bucket: empty, or ending in '/'
     */
    public record ObjectStoreProperties(String endpoint, String bucket, String region,
            String accessKeyId, String secretAccessKey, String prefix) {

        @Override
        public String toString() {
            return "ObjectStoreProperties[endpoint=" + endpoint + ", bucket=" + bucket
                    + ", region=" + region + ", accessKeyId=" + accessKeyId + ", prefix=" + prefix
                    + "]";
        }
    }

    /**
     * The request filter of a servlet application: a request for a tenant another node owns is
     * redirected there or refused, before it reaches the application.
     *
     * @param enabled whether the filter is registered
     * @param tenantHeader the request header that names the tenant, unless the application
     *     defines a {@code TenantResolver} bean
     * @param forward what a request for another node's tenant gets: REDIRECT (307 to the owner's
     *     address, same path and query) or REJECT (421 naming the owner)
     * @param order the filter's order; the default runs after Spring Security's filter chain
     *     (-100), so that a tenant resolver may read the authenticated principal
     */
    public record Web(@DefaultValue("true") boolean enabled,
            @DefaultValue("X-Lanes-Tenant") String tenantHeader,
            @DefaultValue("redirect") ForwardMode forward,
            @DefaultValue("0") int order) {}
}

package dev.lanes.fleet;

import java.net.URI;
import java.util.Objects;

/**
 * The S3-compatible object store that holds the fleet's replicas (S3, MinIO, R2, GCS's S3 API,
 * or s3proxy in tests): each tenant's ownership epochs replicate under {@code
 * <prefix>tenants/<tenant>/<epoch>/} in Litestream's layout.
 *
 * @param endpoint the store's URL; {@code null} for AWS S3 itself
 * @param bucket the bucket
 * @param region the region (any name for stores without regions)
 * @param accessKeyId the access key
 * @param secretAccessKey the secret key; never shown by {@link #toString()}
 * @param prefix a key prefix for this fleet, empty or ending in {@code /}
 */
public record ObjectStore(URI endpoint, String bucket, String region, String accessKeyId,
        String secretAccessKey, String prefix) {

    /** Checks the parts. */
    public ObjectStore {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretAccessKey, "secretAccessKey");
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            throw new IllegalArgumentException("prefix must be empty or end in '/': " + prefix);
        }
    }

    /** A builder; bucket and keys are required, the region defaults to {@code us-east-1}. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String toString() {
        return "ObjectStore[" + (endpoint == null ? "s3" : endpoint) + "/" + bucket + "/" + prefix
                + ", region " + region + ", key " + accessKeyId + "]";
    }

    /** Builds an {@link ObjectStore}. Not thread-safe. */
    public static final class Builder {
        private URI endpoint;
        private String bucket;
        private String region = "us-east-1";
        private String accessKeyId;
        private String secretAccessKey;
        private String prefix = "";

        private Builder() {}

        /** The store's URL, such as {@code http://127.0.0.1:9000}; unset for AWS S3. */
        public Builder endpoint(String url) {
            this.endpoint = URI.create(url);
            return this;
        }

        /** The bucket that holds the replicas; required. */
        public Builder bucket(String bucket) {
            this.bucket = bucket;
            return this;
        }

        /** The region, {@code us-east-1} by default; any name for a store without regions. */
        public Builder region(String region) {
            this.region = region;
            return this;
        }

        /** The access key; required. */
        public Builder accessKeyId(String key) {
            this.accessKeyId = key;
            return this;
        }

        /** The secret key; required, and never shown by {@link ObjectStore#toString()}. */
        public Builder secretAccessKey(String secret) {
            this.secretAccessKey = secret;
            return this;
        }

        /** A key prefix for this fleet inside the bucket: empty, or ending in {@code /}. */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /**
         * The store.
         *
         * @throws NullPointerException when the bucket or a key is missing
         * @throws IllegalArgumentException when the prefix neither is empty nor ends in {@code /}
         */
        public ObjectStore build() {
            return new ObjectStore(endpoint, bucket, region, accessKeyId, secretAccessKey, prefix);
        }
    }
}

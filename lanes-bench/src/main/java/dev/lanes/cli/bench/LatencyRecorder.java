package dev.lanes.cli.bench;

/**
 * A latency histogram with a bounded relative error, in the manner of HdrHistogram but small
 * enough to live here (the CLI takes no dependency for it).
 *
 * <p>Buckets: a value below 128 ns has a bucket of its own, so it is exact. Above, every
 * power-of-two range {@code [2^e, 2^(e+1))} is cut into {@value #SUB_BUCKETS} equal buckets, so a
 * bucket is never wider than 1/{@value #SUB_BUCKETS} (1.6 %) of the values in it. A percentile is
 * reported as the highest value of its bucket, hence never below the true value and at most
 * 1.6 % above it; the maximum is tracked exactly. Recording is an array increment, with no
 * allocation, so the recorder does not disturb what it measures.
 *
 * <p>Concurrency: not thread-safe. Each measuring thread owns one recorder; recorders are {@link
 * #add merged} only after their threads have been joined, which makes their counts visible.
 */
final class LatencyRecorder {
    private static final int SUB_BUCKET_BITS = 6;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    // values below SUB_BUCKETS are exact; then one row of SUB_BUCKETS per power of two from
    // 2^SUB_BUCKET_BITS up to 2^62, the highest power of two a positive long reaches
    private static final int BUCKETS = SUB_BUCKETS + (63 - SUB_BUCKET_BITS) * SUB_BUCKETS;

    private final long[] counts = new long[BUCKETS];
    private long total;
    private long max;

    /** Records one latency in nanoseconds; a negative value (a clock step) counts as zero. */
    void record(long nanos) {
        long value = Math.max(0, nanos);
        counts[bucketOf(value)]++;
        total++;
        if (value > max) {
            max = value;
        }
    }

    /** Adds every value recorded by {@code other} to this recorder. */
    void add(LatencyRecorder other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
        max = Math.max(max, other.max);
    }

    /** How many values were recorded. */
    long count() {
        return total;
    }

    /** The largest value recorded, exactly; 0 when nothing was recorded. */
    long max() {
        return max;
    }

    /**
     * The value below or at which {@code percentile} % of the recorded values fall, within the
     * recorder's precision (never below it, at most 1.6 % above); 0 when nothing was recorded.
     */
    long percentile(double percentile) {
        if (percentile < 0 || percentile > 100) {
            throw new IllegalArgumentException("percentile must be within 0..100, was " + percentile);
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                // the bucket's top may lie above anything recorded: the exact maximum bounds it
                return Math.min(highestValueOf(i), max);
            }
        }
        return max;
    }

    static int bucketOf(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(value);
        int shift = exponent - SUB_BUCKET_BITS;
        // (value >>> shift) lies in [SUB_BUCKETS, 2 * SUB_BUCKETS): its low bits pick the bucket
        return SUB_BUCKETS + shift * SUB_BUCKETS + (int) ((value >>> shift) - SUB_BUCKETS);
    }

    static long highestValueOf(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int shift = (bucket - SUB_BUCKETS) >>> SUB_BUCKET_BITS;
        long subBucket = (bucket - SUB_BUCKETS) & (SUB_BUCKETS - 1);
        long lowest = (SUB_BUCKETS + subBucket) << shift;
        return lowest + (1L << shift) - 1;
    }
}

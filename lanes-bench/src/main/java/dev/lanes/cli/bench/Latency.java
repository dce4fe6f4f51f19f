package dev.lanes.cli.bench;

/**
 * The latency distribution of one run's successful requests, in microseconds: the percentiles the
 * table and the report show, within the {@link LatencyRecorder}'s precision (never below the true
 * value, at most 1.6 % above), and the exact maximum.
 *
 * @param count how many requests the figures describe
 */
record Latency(long count, double p50Micros, double p90Micros, double p99Micros, double p999Micros,
        double maxMicros) {

    /** The percentiles charted in the report, with their labels, in order. */
    static final String[] PERCENTILE_LABELS = {"p50", "p90", "p99", "p99.9", "max"};

    static Latency of(LatencyRecorder recorder) {
        return new Latency(
                recorder.count(),
                micros(recorder.percentile(50)),
                micros(recorder.percentile(90)),
                micros(recorder.percentile(99)),
                micros(recorder.percentile(99.9)),
                micros(recorder.max()));
    }

    /** The values in the order of {@link #PERCENTILE_LABELS}. */
    double[] percentiles() {
        return new double[] {p50Micros, p90Micros, p99Micros, p999Micros, maxMicros};
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }
}

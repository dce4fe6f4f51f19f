package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a soak passed: no {@link SoakSeries} grew faster than its threshold over the second
 * half of the samples, the runtime never held more connections than its budget allows, every
 * window served requests, and the checks of the data after the run held.
 *
 * <p>Growth is judged by the slope of a least-squares line ({@link LinearFit}) through the
 * second half of the samples only: the first half is where a healthy runtime warms up (pools
 * and caches fill, the JIT compiles, reader connections open), and a step there followed by a
 * level is no leak. A leak keeps rising through the second half as well.
 *
 * @param fitFromSeconds the elapsed time of the first sample the fit reads
 * @param fitToSeconds the elapsed time of the last
 * @param growth one entry per series, in {@link SoakSeries} order
 * @param checks the other conditions: connections against the budget, requests in every window,
 *     and the data checks the soak ran after its load
 */
record SoakVerdict(double fitFromSeconds, double fitToSeconds, List<Growth> growth,
        List<Check> checks) {

    SoakVerdict {
        growth = List.copyOf(growth);
        checks = List.copyOf(checks);
    }

    /**
     * One series' growth over the second half.
     *
     * @param slopePerMinute the fitted slope in the series' unit per minute; null when the series
     *     was not measured (no {@code /proc}), which passes
     * @param thresholdPerMinute the steepest slope allowed
     */
    record Growth(SoakSeries series, String unit, Double slopePerMinute,
            double thresholdPerMinute, boolean passed) {

        /** What it grew by, for people: {@code +0.12 MiB/min}, or {@code not measured}. */
        String rate() {
            return slopePerMinute == null ? "not measured" : series.rate(slopePerMinute);
        }
    }

    /**
     * A condition that is not a slope.
     *
     * @param name what is checked
     * @param observed what the soak saw, for people
     * @param limit what it must stay within, for people
     */
    record Check(String name, String observed, String limit, boolean passed) {}

    /** Whether everything held. */
    @JsonProperty
    boolean passed() {
        return growth.stream().allMatch(Growth::passed) && checks.stream().allMatch(Check::passed);
    }

    /** What failed, one line each, for the {@code !} lines; empty when it passed. */
    List<String> failures() {
        List<String> lines = new ArrayList<>();
        for (Growth g : growth) {
            if (!g.passed()) {
                lines.add(String.format(Locale.ROOT, "%s grew %s from %s to %s (threshold %s)",
                        g.series().label(), g.rate(), clock(fitFromSeconds), clock(fitToSeconds),
                        g.series().threshold()));
            }
        }
        for (Check c : checks) {
            if (!c.passed()) {
                lines.add(c.name() + ": " + c.observed() + " (must be " + c.limit() + ")");
            }
        }
        return lines;
    }

    /**
     * Judges {@code samples} (at least two, in the order taken).
     *
     * @param connectionLimit the most connections the runtime may hold at any moment: its budget
     *     and the connections being opened at that moment
     * @param limitText how {@code connectionLimit} is made up, for people
     * @param dataChecks the checks of the data the soak made after its load, already judged
     */
    static SoakVerdict judge(List<SoakSample> samples, int connectionLimit, String limitText,
            List<Check> dataChecks) {
        if (samples.size() < 2) {
            throw new IllegalArgumentException(
                    "a soak verdict needs two samples at least, had " + samples.size());
        }
        List<SoakSample> half = secondHalf(samples);
        List<Growth> growth = new ArrayList<>();
        for (SoakSeries series : SoakSeries.values()) {
            growth.add(growth(series, half));
        }
        List<Check> checks = new ArrayList<>();
        int most = samples.stream().mapToInt(SoakSample::mostConnections).max().orElse(0);
        checks.add(new Check("connections", String.format(Locale.ROOT, "at most %,d open", most),
                String.format(Locale.ROOT, "<= %,d (%s)", connectionLimit, limitText),
                most <= connectionLimit));
        // the first sample closes no window: it is taken as the load starts
        long fewest = samples.subList(1, samples.size()).stream()
                .mapToLong(SoakSample::requests).min().orElse(0);
        checks.add(new Check("requests in every window",
                String.format(Locale.ROOT, "at least %,d", fewest), "> 0", fewest > 0));
        checks.addAll(dataChecks);
        return new SoakVerdict(half.get(0).elapsedSeconds(),
                half.get(half.size() - 1).elapsedSeconds(), growth, checks);
    }

    /** The samples a fit reads: the later half, from index {@code n / 2} on. */
    static List<SoakSample> secondHalf(List<SoakSample> samples) {
        return samples.subList(samples.size() / 2, samples.size());
    }

    private static Growth growth(SoakSeries series, List<SoakSample> half) {
        LinearFit fit = fit(series, half);
        if (fit == null) {
            return new Growth(series, series.unit(), null, series.maxSlopePerMinute(), true);
        }
        return new Growth(series, series.unit(), fit.slope(), series.maxSlopePerMinute(),
                fit.slope() <= series.maxSlopePerMinute());
    }

    /**
     * The line through {@code samples} of {@code series}, in its unit over elapsed minutes; null
     * when a sample did not measure it.
     */
    static LinearFit fit(SoakSeries series, List<SoakSample> samples) {
        double[] minutes = new double[samples.size()];
        double[] values = new double[samples.size()];
        for (int i = 0; i < samples.size(); i++) {
            minutes[i] = samples.get(i).elapsedSeconds() / 60;
            values[i] = series.value(samples.get(i));
            if (Double.isNaN(values[i])) {
                return null;
            }
        }
        return LinearFit.of(minutes, values);
    }

    /** {@code 5:00}: elapsed minutes and seconds. */
    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}

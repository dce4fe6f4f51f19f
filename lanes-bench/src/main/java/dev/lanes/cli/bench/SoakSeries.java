package dev.lanes.cli.bench;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The figures of a {@link SoakSample} that must not grow without bound, each with the growth a
 * soak tolerates: the slope, per minute, of a least-squares line through the second half of the
 * samples ({@link SoakVerdict}). A healthy runtime's series rise while caches, pools and the JIT
 * warm up and then stay level; a leak keeps rising for as long as the load goes on.
 *
 * <p>The thresholds were chosen from soaks of a healthy runtime on the project's 2-core machine
 * (docs/cli.md, "Soak"): each is several times the largest slope seen there, and far below what a
 * small leak produces. Retaining 1 KiB per request, at the few thousand requests per second the
 * soak makes, grows the heap by hundreds of MiB a minute; even at 100 requests per second it
 * would be 5.9 MiB a minute, above the heap's threshold. One connection left open per eviction
 * adds descriptors by the hundreds per minute, one thread per idle release likewise.
 */
enum SoakSeries {
    HEAP("heapAfterGc", "heap after GC", "MiB", 1 << 20, 2),
    RSS("rss", "RSS", "MiB", 1 << 20, 16),
    FILES("openFiles", "open files", "", 1, 20),
    THREADS("threads", "threads", "", 1, 1),
    WAL("walBytes", "WAL, all databases", "MiB", 1 << 20, 4);

    private final String id;
    private final String label;
    private final String unit;
    private final double scale;
    private final double maxSlopePerMinute;

    SoakSeries(String id, String label, String unit, double scale, double maxSlopePerMinute) {
        this.id = id;
        this.label = label;
        this.unit = unit;
        this.scale = scale;
        this.maxSlopePerMinute = maxSlopePerMinute;
    }

    /** The series' name in the JSON: the {@link SoakSample} field it reads. */
    @JsonValue
    String id() {
        return id;
    }

    /** What people call it: {@code heap after GC}. */
    String label() {
        return label;
    }

    /** The unit its values and slopes are in ({@code MiB}), empty for counts. */
    String unit() {
        return unit;
    }

    /** The steepest growth per minute a healthy runtime may show, in {@link #unit()}. */
    double maxSlopePerMinute() {
        return maxSlopePerMinute;
    }

    /** The series' value in {@code sample}, in {@link #unit()}; NaN when it was not measured. */
    double value(SoakSample sample) {
        long raw = raw().applyAsLong(sample);
        return raw < 0 ? Double.NaN : raw / scale;
    }

    private ToLongFunction<SoakSample> raw() {
        switch (this) {
            case HEAP:
                return SoakSample::heapAfterGcBytes;
            case RSS:
                return SoakSample::rssBytes;
            case FILES:
                return SoakSample::openFiles;
            case THREADS:
                return SoakSample::threads;
            default:
                return SoakSample::walBytes;
        }
    }

    /** A growth rate for people: {@code +1.25 MiB/min}, {@code -0.40/min}. */
    String rate(double perMinute) {
        return String.format(Locale.ROOT, "%+.2f%s/min", perMinute, unit.isEmpty() ? "" : " " + unit);
    }

    /** The threshold for people: {@code 4 MiB/min}, {@code 2/min}. */
    String threshold() {
        String n = maxSlopePerMinute == Math.rint(maxSlopePerMinute)
                ? String.format(Locale.ROOT, "%.0f", maxSlopePerMinute)
                : String.format(Locale.ROOT, "%.2f", maxSlopePerMinute);
        return n + (unit.isEmpty() ? "" : " " + unit) + "/min";
    }
}

package dev.lanes.cli.bench;

import dev.lanes.Synchronous;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

/**
 * Synthetic soak samples for the verdict and report tests. Every series sits at a level a
 * healthy 1,000-database soak showed on the project's machine (heap 13 MiB, RSS 250 MiB, 1,070
 * descriptors, 20 threads, WAL 10 MiB) unless a test gives it a shape: a function of the elapsed
 * minutes returning the value in the series' unit. Each window served 25,000 requests.
 */
final class SoakFixtures {
    static final double MIB = 1 << 20;
    /** The sample interval of the fixtures, as in a real soak. */
    static final double INTERVAL_SECONDS = 10;
    /** A 10-minute soak's samples: one at the start and one every 10 s. */
    static final int TEN_MINUTES = 61;
    /** The connection limit the fixtures are judged against. */
    static final int LIMIT = 372;

    private SoakFixtures() {}

    /** The levels of a healthy soak, in each series' unit. */
    static Map<SoakSeries, DoubleUnaryOperator> flat() {
        Map<SoakSeries, DoubleUnaryOperator> shapes = new EnumMap<>(SoakSeries.class);
        shapes.put(SoakSeries.HEAP, t -> 13);
        shapes.put(SoakSeries.RSS, t -> 250);
        shapes.put(SoakSeries.FILES, t -> 1_070);
        shapes.put(SoakSeries.THREADS, t -> 20);
        shapes.put(SoakSeries.WAL, t -> 10);
        return shapes;
    }

    /**
     * The flat levels with the sample-to-sample noise a healthy soak showed, drawn from a fixed
     * seed: heap +-0.2 MiB, RSS +-6 MiB, descriptors +-25, threads +-2, WAL +-4 MiB.
     */
    static Map<SoakSeries, DoubleUnaryOperator> noisyFlat(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Map<SoakSeries, DoubleUnaryOperator> shapes = new EnumMap<>(SoakSeries.class);
        shapes.put(SoakSeries.HEAP, t -> 13 + noise(random, 0.2));
        shapes.put(SoakSeries.RSS, t -> 250 + noise(random, 6));
        shapes.put(SoakSeries.FILES, t -> Math.round(1_070 + noise(random, 25)));
        shapes.put(SoakSeries.THREADS, t -> Math.round(20 + noise(random, 2)));
        shapes.put(SoakSeries.WAL, t -> 10 + noise(random, 4));
        return shapes;
    }

    private static double noise(SplittableRandom random, double amplitude) {
        return (random.nextDouble() * 2 - 1) * amplitude;
    }

    /** {@code count} samples {@value #INTERVAL_SECONDS} s apart with the given shapes. */
    static List<SoakSample> samples(int count, Map<SoakSeries, DoubleUnaryOperator> shapes) {
        List<SoakSample> samples = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            double seconds = i * INTERVAL_SECONDS;
            double minutes = seconds / 60;
            samples.add(new SoakSample(seconds, i == 0 ? 0 : INTERVAL_SECONDS,
                    i == 0 ? 0 : 25_000, i == 0 ? 0 : 500, Map.of(),
                    (long) (shapes.get(SoakSeries.HEAP).applyAsDouble(minutes) * MIB),
                    68L << 20,
                    (long) (shapes.get(SoakSeries.RSS).applyAsDouble(minutes) * MIB),
                    (long) shapes.get(SoakSeries.FILES).applyAsDouble(minutes),
                    (int) shapes.get(SoakSeries.THREADS).applyAsDouble(minutes), 2, 300, 304,
                    140, (long) (shapes.get(SoakSeries.WAL).applyAsDouble(minutes) * MIB), 1.5));
        }
        return samples;
    }

    /** The setup of a 1,000-database soak of {@code samples}. */
    static SoakResult.Setup setup(List<SoakSample> samples) {
        return new SoakResult.Setup(Synchronous.NORMAL, 1000, 8, 100, 30, 300, LIMIT, 64, 2, 3,
                746, 250, 4, 5, SoakLoad.KEPT_ROWS,
                samples.get(samples.size() - 1).elapsedSeconds(), INTERVAL_SECONDS, 5.4);
    }

    /** A judged soak of {@code samples}, its data checks passed. */
    static SoakResult result(List<SoakSample> samples) {
        return new SoakResult(setup(samples), samples,
                new SoakResult.ExternalCheckpoints(480, 2, 0, null),
                SoakVerdict.judge(samples, LIMIT, "budget 300 + 8 clients + 64 pool threads opening",
                        List.of(new SoakVerdict.Check("counters, all databases", "49,028 increments",
                                "= 49,028 committed transactions", true))));
    }

    /** A healthy 10-minute soak. */
    static SoakResult healthy() {
        return result(samples(TEN_MINUTES, noisyFlat(7)));
    }

    /** A 10-minute soak whose heap keeps 1 KiB per request: 25,000 requests per 10 s. */
    static SoakResult leaking() {
        Map<SoakSeries, DoubleUnaryOperator> shapes = noisyFlat(7);
        shapes.put(SoakSeries.HEAP, t -> 13 + t * 6 * 25_000 / 1024.0);
        return result(samples(TEN_MINUTES, shapes));
    }
}

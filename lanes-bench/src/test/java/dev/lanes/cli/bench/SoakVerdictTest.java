package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

class SoakVerdictTest {

    @Test
    void flatSeriesPass() {
        SoakVerdict v = judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES, SoakFixtures.flat()));

        assertThat(v.passed()).isTrue();
        assertThat(v.failures()).isEmpty();
        assertThat(v.growth()).extracting(SoakVerdict.Growth::series)
                .containsExactly(SoakSeries.values());
        for (SoakVerdict.Growth g : v.growth()) {
            assertThat(g.slopePerMinute()).as("%s", g.series()).isCloseTo(0, within(1e-9));
        }
    }

    @Test
    void healthyNoiseOnFlatSeriesPassesWhateverTheDraw() {
        for (long seed = 1; seed <= 50; seed++) {
            SoakVerdict v = judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES,
                    SoakFixtures.noisyFlat(seed)));

            assertThat(v.failures()).as("seed %d", seed).isEmpty();
        }
    }

    @Test
    void aHeapKeepingOneKibibytePerRequestFailsAndIsNamed() {
        // 25,000 requests per 10 s window, 1 KiB each: 146.5 MiB a minute
        Map<SoakSeries, DoubleUnaryOperator> shapes = SoakFixtures.noisyFlat(3);
        shapes.put(SoakSeries.HEAP, t -> 13 + t * 6 * 25_000 / 1024.0);

        SoakVerdict v = judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES, shapes));

        assertThat(v.passed()).isFalse();
        assertThat(failed(v)).containsExactly(SoakSeries.HEAP);
        assertThat(v.growth().get(0).slopePerMinute()).isCloseTo(146.48, within(0.01));
        assertThat(v.failures()).containsExactly(
                "heap after GC grew +146.48 MiB/min from 5:00 to 10:00 (threshold 2 MiB/min)");
    }

    @Test
    void eachSeriesFailsJustAboveItsThresholdAndPassesJustBelow() {
        for (SoakSeries series : SoakSeries.values()) {
            double limit = series.maxSlopePerMinute();
            double level = SoakFixtures.flat().get(series).applyAsDouble(0);
            Map<SoakSeries, DoubleUnaryOperator> above = SoakFixtures.flat();
            above.put(series, t -> level + 1.1 * limit * t);
            Map<SoakSeries, DoubleUnaryOperator> below = SoakFixtures.flat();
            below.put(series, t -> level + 0.9 * limit * t);

            // threads and descriptors are whole numbers: the fixture truncates, the slope stays
            assertThat(failed(judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES, above))))
                    .as("%s at 1.1x its threshold", series).containsExactly(series);
            assertThat(failed(judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES, below))))
                    .as("%s at 0.9x its threshold", series).isEmpty();
        }
    }

    @Test
    void aStepInTheFirstHalfFollowedByALevelIsWarmUpNotALeak() {
        Map<SoakSeries, DoubleUnaryOperator> shapes = SoakFixtures.noisyFlat(11);
        DoubleUnaryOperator noisyRss = shapes.get(SoakSeries.RSS);
        // caches fill at 2 minutes, pool threads and their descriptors at 1 minute
        shapes.put(SoakSeries.HEAP, t -> t < 2 ? 13 : 60);
        shapes.put(SoakSeries.RSS, t -> noisyRss.applyAsDouble(t) + (t < 2 ? 0 : 150));
        shapes.put(SoakSeries.FILES, t -> t < 1 ? 400 : 1_070);
        shapes.put(SoakSeries.THREADS, t -> t < 1 ? 83 : 20);
        shapes.put(SoakSeries.WAL, t -> Math.min(10, t * 20));

        SoakVerdict v = judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES, shapes));

        assertThat(v.failures()).isEmpty();
    }

    @Test
    void aStepInTheSecondHalfIsGrowthTheRunCannotExplain() {
        Map<SoakSeries, DoubleUnaryOperator> shapes = SoakFixtures.flat();
        shapes.put(SoakSeries.HEAP, t -> t < 8 ? 13 : 63);

        assertThat(failed(judge(SoakFixtures.samples(SoakFixtures.TEN_MINUTES, shapes))))
                .containsExactly(SoakSeries.HEAP);
    }

    @Test
    void onlyTheSecondHalfIsFitted() {
        List<SoakSample> samples = SoakFixtures.samples(SoakFixtures.TEN_MINUTES,
                SoakFixtures.flat());

        assertThat(SoakVerdict.secondHalf(samples)).hasSize(31);
        assertThat(SoakVerdict.secondHalf(samples).get(0).elapsedSeconds()).isEqualTo(300);
        assertThat(SoakVerdict.secondHalf(samples.subList(0, 4))).extracting(
                SoakSample::elapsedSeconds).containsExactly(20.0, 30.0);
        SoakVerdict v = judge(samples);
        assertThat(v.fitFromSeconds()).isEqualTo(300);
        assertThat(v.fitToSeconds()).isEqualTo(600);
    }

    @Test
    void connectionsAboveTheLimitAtAnyMomentFail() {
        List<SoakSample> samples = new ArrayList<>(
                SoakFixtures.samples(SoakFixtures.TEN_MINUTES, SoakFixtures.flat()));
        SoakSample s = samples.get(7);
        samples.set(7, new SoakSample(s.elapsedSeconds(), s.windowSeconds(), s.requests(),
                s.deliberateFailures(), s.errors(), s.heapAfterGcBytes(), s.heapCommittedBytes(),
                s.rssBytes(), s.openFiles(), s.threads(), s.poolThreads(), s.openConnections(),
                SoakFixtures.LIMIT + 1, s.readerConnections(), s.walBytes(), s.loadAverage()));

        SoakVerdict v = judge(samples);

        assertThat(v.passed()).isFalse();
        assertThat(failed(v)).isEmpty();
        assertThat(v.failures()).containsExactly("connections: at most 373 open (must be <= 372"
                + " (budget 300 + 8 clients + 64 pool threads opening))");
    }

    @Test
    void aWindowWithoutRequestsFailsEvenWhenNothingGrew() {
        // a stalled runtime grows nothing: it must not pass for that
        List<SoakSample> samples = new ArrayList<>(
                SoakFixtures.samples(SoakFixtures.TEN_MINUTES, SoakFixtures.flat()));
        SoakSample s = samples.get(40);
        samples.set(40, new SoakSample(s.elapsedSeconds(), s.windowSeconds(), 0, 0,
                Map.of("ADMISSION_TIMEOUT", 80L), s.heapAfterGcBytes(), s.heapCommittedBytes(),
                s.rssBytes(), s.openFiles(), s.threads(), s.poolThreads(), s.openConnections(),
                s.mostConnections(), s.readerConnections(), s.walBytes(), s.loadAverage()));

        SoakVerdict v = judge(samples);

        assertThat(v.passed()).isFalse();
        assertThat(v.failures()).containsExactly("requests in every window: at least 0 (must be > 0)");
    }

    @Test
    void theFirstSampleClosesNoWindowAndNeedsNoRequests() {
        List<SoakSample> samples = SoakFixtures.samples(4, SoakFixtures.flat());

        assertThat(samples.get(0).requests()).isZero();
        assertThat(judge(samples).passed()).isTrue();
    }

    @Test
    void aSeriesThisSystemCannotMeasurePassesAsNotMeasured() {
        List<SoakSample> samples = new ArrayList<>();
        for (SoakSample s : SoakFixtures.samples(13, SoakFixtures.flat())) {
            // no /proc: RSS and descriptors unknown
            samples.add(new SoakSample(s.elapsedSeconds(), s.windowSeconds(), s.requests(),
                    s.deliberateFailures(), s.errors(), s.heapAfterGcBytes(),
                    s.heapCommittedBytes(), -1, -1, s.threads(), s.poolThreads(),
                    s.openConnections(), s.mostConnections(), s.readerConnections(),
                    s.walBytes(), s.loadAverage()));
        }

        SoakVerdict v = judge(samples);

        assertThat(v.passed()).isTrue();
        assertThat(v.growth()).filteredOn(g -> g.slopePerMinute() == null)
                .extracting(SoakVerdict.Growth::series)
                .containsExactly(SoakSeries.RSS, SoakSeries.FILES);
        assertThat(v.growth().get(1).rate()).isEqualTo("not measured");
    }

    @Test
    void aFailedDataCheckFailsTheSoak() {
        SoakVerdict v = SoakVerdict.judge(SoakFixtures.samples(13, SoakFixtures.flat()),
                SoakFixtures.LIMIT, "the budget", List.of(new SoakVerdict.Check(
                        "rows of writes that failed on purpose", "3 found", "0", false)));

        assertThat(v.passed()).isFalse();
        assertThat(v.failures()).containsExactly(
                "rows of writes that failed on purpose: 3 found (must be 0)");
    }

    @Test
    void aVerdictNeedsTwoSamples() {
        assertThatThrownBy(() -> judge(SoakFixtures.samples(1, SoakFixtures.flat())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two samples");
    }

    private static SoakVerdict judge(List<SoakSample> samples) {
        return SoakVerdict.judge(samples, SoakFixtures.LIMIT,
                "budget 300 + 8 clients + 64 pool threads opening", List.of());
    }

    private static List<SoakSeries> failed(SoakVerdict v) {
        return v.growth().stream().filter(g -> !g.passed()).map(SoakVerdict.Growth::series)
                .toList();
    }
}

package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    private static final long MICROS = 1_000;

    @Test
    void percentilesOfAUniformDistributionAreWithinThePrecision() {
        LatencyRecorder recorder = new LatencyRecorder();
        for (long us = 1; us <= 1000; us++) {
            recorder.record(us * MICROS);
        }

        assertThat(recorder.count()).isEqualTo(1000);
        assertThat(recorder.percentile(50)).isBetween(500 * MICROS, (long) (500 * MICROS * 1.02));
        assertThat(recorder.percentile(99)).isBetween(990 * MICROS, (long) (990 * MICROS * 1.02));
        assertThat((double) recorder.percentile(50)).isCloseTo(500 * MICROS, withinPercentage(2));
        assertThat(recorder.max()).isEqualTo(1000 * MICROS);
        assertThat(recorder.percentile(100)).isEqualTo(1000 * MICROS);
    }

    @Test
    void aValueIsReportedNeverBelowItselfAndAtMostOneSixtyFourthAbove() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            // every magnitude a positive long can hold, not only typical latencies
            long value = random.nextLong() >>> (1 + random.nextInt(63));
            long reported = LatencyRecorder.highestValueOf(LatencyRecorder.bucketOf(value));
            assertThat(reported).isGreaterThanOrEqualTo(value);
            assertThat((double) reported - value).isLessThanOrEqualTo(value / 64.0);
        }
        assertThat(LatencyRecorder.highestValueOf(LatencyRecorder.bucketOf(Long.MAX_VALUE)))
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void smallValuesAreExact() {
        for (long ns = 0; ns < 128; ns++) {
            assertThat(LatencyRecorder.highestValueOf(LatencyRecorder.bucketOf(ns))).isEqualTo(ns);
        }
    }

    @Test
    void mergedRecordersReportWhatOneRecorderOfAllValuesReports() {
        LatencyRecorder all = new LatencyRecorder();
        LatencyRecorder odd = new LatencyRecorder();
        LatencyRecorder even = new LatencyRecorder();
        for (long us = 1; us <= 1000; us++) {
            all.record(us * MICROS);
            (us % 2 == 0 ? even : odd).record(us * MICROS);
        }

        odd.add(even);

        assertThat(odd.count()).isEqualTo(all.count());
        assertThat(odd.max()).isEqualTo(all.max());
        for (double p : new double[] {0, 1, 50, 90, 99, 99.9, 100}) {
            assertThat(odd.percentile(p)).as("p%s", p).isEqualTo(all.percentile(p));
        }
    }

    @Test
    void anEmptyRecorderReportsZero() {
        LatencyRecorder recorder = new LatencyRecorder();

        assertThat(recorder.percentile(99)).isZero();
        assertThat(recorder.max()).isZero();
        assertThat(recorder.count()).isZero();
    }
}

package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RepetitionsTest {
    private static final double EPS = 1e-9;

    @Test
    void theMedianOfAnOddNumberIsTheMiddleOneWhateverTheOrder() {
        assertThat(Repetitions.median(7)).isEqualTo(7);
        assertThat(Repetitions.median(3, 1, 2)).isEqualTo(2);
        assertThat(Repetitions.median(10, 1, 9, 2, 5)).isEqualTo(5);
    }

    @Test
    void theMedianOfAnEvenNumberIsTheMeanOfTheTwoMiddleOnes() {
        assertThat(Repetitions.median(4, 1)).isEqualTo(2.5);
        assertThat(Repetitions.median(8, 1, 2, 100)).isEqualTo(5);
    }

    @Test
    void theMedianLeavesItsInputAsItWas() {
        double[] values = {3, 1, 2};
        Repetitions.median(values);
        assertThat(values).containsExactly(3, 1, 2);
    }

    @Test
    void noValuesHaveNoMedian() {
        assertThatThrownBy(() -> Repetitions.median())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no values");
    }

    @Test
    void aSpreadIsTheMedianMinAndMaxOfTheDefinedRatiosAndKeepsEachInPlace() {
        Spread odd = Repetitions.spread(List.of(2.0, 3.25, 1.5));
        assertThat(odd.median()).isEqualTo(2.0);
        assertThat(odd.min()).isEqualTo(1.5);
        assertThat(odd.max()).isEqualTo(3.25);
        assertThat(odd.perRepetition()).containsExactly(2.0, 3.25, 1.5);

        Spread even = Repetitions.spread(List.of(2.0, 3.0));
        assertThat(even.median()).isEqualTo(2.5);

        // an undefined ratio (a divisor of zero) keeps its repetition's place, out of the figures
        Spread gap = Repetitions.spread(Arrays.asList(1.0, null, 0.75));
        assertThat(gap.median()).isEqualTo(0.875);
        assertThat(gap.min()).isEqualTo(0.75);
        assertThat(gap.max()).isEqualTo(1.0);
        assertThat(gap.perRepetition()).containsExactly(1.0, null, 0.75);
        assertThat(gap.undefined()).isEqualTo(1);

        Spread none = Repetitions.spread(Arrays.asList(null, null));
        assertThat(none.median()).isNull();
        assertThat(none.min()).isNull();
        assertThat(none.max()).isNull();
        assertThat(none.undefined()).isEqualTo(2);
    }

    @Test
    void ratiosArePairedRepetitionByRepetitionNotTakenOfTheMedians() {
        List<RunResult> lanes = List.of(
                write("lanes", 100_000, 30, 900), write("lanes", 130_000, 20, 1_000),
                write("lanes", 120_000, 25, 800));
        List<RunResult> hikari = List.of(
                write("hikari", 50_000, 15, 4_000), write("hikari", 40_000, 30, 2_000),
                write("hikari", 60_000, 25, 8_000));

        Comparison c = Comparison.of(lanes, hikari);

        assertThat(c.throughput().perRepetition()).containsExactly(2.0, 3.25, 2.0);
        // the ratio of the medians would be 120,000 / 50,000 = 2.4
        assertThat(c.throughputRatio()).isEqualTo(2.0);
        assertThat(c.throughput().min()).isEqualTo(2.0);
        assertThat(c.throughput().max()).isEqualTo(3.25);
        assertThat(c.p50().perRepetition()).containsExactly(0.5, 1.5, 1.0);
        assertThat(c.p50Ratio()).isEqualTo(1.0);
        assertThat(c.p99Ratio()).isCloseTo(4_000 / 900.0, within(EPS));
        assertThat(c.p99().max()).isEqualTo(10.0);
        assertThat(c.repetitions()).isEqualTo(3);
        assertThat(c.baseline()).isEqualTo("hikari");
    }

    @Test
    void aSingleRunIsComparedAsBefore() {
        Comparison c = Comparison.of(
                write("lanes", 90_000, 10, 100), write("raw", 30_000, 20, 400));

        assertThat(c.throughputRatio()).isEqualTo(3.0);
        assertThat(c.p50Ratio()).isEqualTo(2.0);
        assertThat(c.p99Ratio()).isEqualTo(4.0);
        assertThat(c.repetitions()).isEqualTo(1);
        assertThat(c.throughput().min()).isEqualTo(c.throughput().max()).isEqualTo(3.0);
    }

    @Test
    void theCpuRatioIsTheBaselinesCpuPerRequestOverLanesPerPair() {
        List<RunResult> lanes = List.of(withCpu("lanes", 10.0), withCpu("lanes", 8.0),
                withCpu("lanes", null));
        List<RunResult> hikari = List.of(withCpu("hikari", 25.0), withCpu("hikari", 40.0),
                withCpu("hikari", 30.0));

        Comparison c = Comparison.of(lanes, hikari);

        // above 1: Lanes spends less CPU on each write; a pair with an unknown side has none
        assertThat(c.cpu().perRepetition()).containsExactly(2.5, 5.0, null);
        assertThat(c.cpuRatio()).isEqualTo(3.75);
        assertThat(c.cpu().min()).isEqualTo(2.5);
        assertThat(c.cpu().max()).isEqualTo(5.0);
        assertThat(Repetitions.median(lanes).cpuMicrosPerOperation()).isEqualTo(9.0);
        assertThat(Repetitions.median(hikari).cpuMicrosPerOperation()).isEqualTo(30.0);
        assertThat(Comparison.cpuRatio(null, 3.0)).isNull();
        assertThat(Comparison.cpuRatio(3.0, 0.0)).isNull();
    }

    @Test
    void sidesOfUnequalRepetitionsAreRefused() {
        assertThatThrownBy(() -> Comparison.of(List.of(write("lanes", 1, 1, 1)), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 of lanes, 0 of the baseline");
    }

    @Test
    void theMedianRunTakesTheMedianOfEachFigureAndSumsTheErrors() {
        List<RunResult> runs = List.of(
                ReportFixtures.run(Scenario.READ, "with writer", "lanes", 8, 400_000, 3, 40,
                        Map.of("SQLITE_BUSY", 2L)),
                ReportFixtures.run(Scenario.READ, "with writer", "lanes", 8, 300_000, 5, 20,
                        Map.of()),
                ReportFixtures.run(Scenario.READ, "with writer", "lanes", 8, 500_000, 4, 60,
                        Map.of("SQLITE_BUSY", 1L, "SQLITE_LOCKED", 4L)));

        RunResult median = Repetitions.median(runs);

        assertThat(median.operationsPerSecond()).isEqualTo(400_000);
        assertThat(median.operations()).isEqualTo(2_000_000);
        assertThat(median.latency().p50Micros()).isEqualTo(4);
        assertThat(median.latency().p90Micros()).isEqualTo(8);
        assertThat(median.latency().p99Micros()).isEqualTo(40);
        assertThat(median.latency().maxMicros()).isEqualTo(400);
        // a failure in any repetition shows
        assertThat(median.errors()).containsExactly(
                Map.entry("SQLITE_BUSY", 3L), Map.entry("SQLITE_LOCKED", 4L));
        assertThat(median.backgroundPerSecond()).isEqualTo(20_000);
        assertThat(median.system()).isEqualTo("lanes");
        assertThat(median.variant()).isEqualTo("with writer");
        assertThat(median.repetition()).as("a median is no one repetition").isZero();
        assertThat(median.consistency()).isNull();
    }

    @Test
    void theMedianOfAnEvenNumberOfRunsAveragesTheMiddleTwoOfEachFigure() {
        RunResult median = Repetitions.median(List.of(
                write("lanes", 100_000, 30, 900), write("lanes", 130_000, 20, 1_000)));

        assertThat(median.operationsPerSecond()).isEqualTo(115_000);
        assertThat(median.latency().p50Micros()).isEqualTo(25);
        assertThat(median.latency().p99Micros()).isEqualTo(950);
    }

    @Test
    void latenciesByKindAreMediansKindByKind() throws Exception {
        List<RunResult> tenants = RepeatedFixtures.tenants().runsOfLanes();

        RunResult median = Repetitions.median(tenants);

        assertThat(median.operationsPerSecond()).isEqualTo(60_000);
        assertThat(median.latencyByKind()).containsOnlyKeys("read", "write");
        assertThat(median.latencyByKind().get("read").p50Micros()).isEqualTo(5);
        assertThat(median.latencyByKind().get("write").p50Micros()).isEqualTo(16);
        assertThat(median.latencyByKind().get("read").count()).isEqualTo(240_000);
        assertThat(median.footprint()).as("footprints stay with each run").isNull();
    }

    @Test
    void aSingleRunIsItsOwnMedian() {
        RunResult run = write("lanes", 1_000, 10, 20);

        assertThat(Repetitions.median(List.of(run))).isSameAs(run);
    }

    @Test
    void runsOfDifferentSystemsHaveNoMedian() {
        assertThatThrownBy(() -> Repetitions.median(
                        List.of(write("lanes", 1, 1, 1), write("hikari", 1, 1, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("write lanes, 64 threads, NORMAL and write hikari");
    }

    @Test
    void eachSystemOfAConfigurationGetsOneMedianInTheOrderItFirstRan() {
        List<RunResult> medians = Repetitions.medians(List.of(
                write("lanes", 100, 1, 1), write("hikari", 10, 1, 1),
                write("lanes", 300, 1, 1), write("hikari", 30, 1, 1),
                write("lanes", 200, 1, 1), write("hikari", 20, 1, 1)));

        assertThat(medians).extracting(RunResult::system).containsExactly("lanes", "hikari");
        assertThat(medians).extracting(RunResult::operationsPerSecond).containsExactly(200.0, 20.0);
    }

    @Test
    void aRepetitionIsNamedItsNumberOfAll() {
        assertThat(Repetitions.label(2, 3)).isEqualTo("repeat 2/3");
    }

    /** A write run of made-up CPU microseconds per request, null for unknown. */
    private static RunResult withCpu(String system, Double cpuMicros) {
        RunResult r = write(system, 50_000, 20, 400);
        return new RunResult(r.scenario(), r.variant(), r.synchronous(), r.system(), r.threads(),
                r.repetition(), r.seconds(), r.operations(), r.operationsPerSecond(), r.latency(),
                r.latencyByKind(), r.errors(), r.backgroundPerSecond(), cpuMicros,
                cpuMicros == null ? null : 0.9, r.consistency(), r.footprint());
    }

    private static RunResult write(String system, double perSecond, double p50, double p99) {
        return ReportFixtures.run(Scenario.WRITE, "", system, 64, perSecond, p50, p99, Map.of());
    }
}

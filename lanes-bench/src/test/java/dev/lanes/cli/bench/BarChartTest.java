package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BarChartTest {
    @Test
    void ticksAreRoundAndReachTheMaximum() {
        assertThat(BarChart.ticks(95_000)).containsExactly(0, 20_000, 40_000, 60_000, 80_000, 100_000);
        assertThat(BarChart.ticks(100_000)).containsExactly(0, 20_000, 40_000, 60_000, 80_000, 100_000);
        assertThat(BarChart.ticks(1)).hasSize(6).startsWith(0.0);
        assertThat(BarChart.ticks(1)[5]).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(BarChart.ticks(7)).containsExactly(0, 2, 4, 6, 8);
        assertThat(BarChart.ticks(0)).containsExactly(0, 1);
    }

    @Test
    void percentileLabelsUseTheUnitThatKeepsThemShort() {
        assertThat(PercentileChart.micros(1)).isEqualTo("1 us");
        assertThat(PercentileChart.micros(2.5)).isEqualTo("2.5 us");
        assertThat(PercentileChart.micros(1000)).isEqualTo("1 ms");
        assertThat(PercentileChart.micros(1_500_000)).isEqualTo("1.5 s");
    }
}

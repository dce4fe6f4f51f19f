package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LinearFitTest {
    @Test
    void pointsOnALineGiveThatLine() {
        LinearFit fit = LinearFit.of(new double[] {0, 1, 2, 3}, new double[] {5, 7, 9, 11});

        assertThat(fit.slope()).isCloseTo(2, within(1e-12));
        assertThat(fit.intercept()).isCloseTo(5, within(1e-12));
        assertThat(fit.at(10)).isCloseTo(25, within(1e-9));
        assertThat(fit.points()).isEqualTo(4);
    }

    @Test
    void theSlopeMinimisesTheSquaredDistances() {
        // (0,1) (1,3) (2,2): mean x 1, mean y 2, sum dx*dy = 1, sum dx^2 = 2
        LinearFit fit = LinearFit.of(new double[] {0, 1, 2}, new double[] {1, 3, 2});

        assertThat(fit.slope()).isCloseTo(0.5, within(1e-12));
        assertThat(fit.intercept()).isCloseTo(1.5, within(1e-12));
    }

    @Test
    void aSmallSlopeOnAHugeLevelKeepsItsDigits() {
        // a heap of 4 GiB growing by 1 KiB a minute, sampled every 10 s for 5 minutes
        double[] x = new double[31];
        double[] y = new double[31];
        for (int i = 0; i < x.length; i++) {
            x[i] = 5 + i / 6.0;
            y[i] = 4_294_967_296.0 + 1024 * x[i];
        }

        assertThat(LinearFit.of(x, y).slope()).isCloseTo(1024, within(1e-3));
    }

    @Test
    void unevenlySpacedPointsWeighByTheirPlace() {
        // a window that ran late: x 0, 1, 3; y on the line y = 2x
        assertThat(LinearFit.of(new double[] {0, 1, 3}, new double[] {0, 2, 6}).slope())
                .isCloseTo(2, within(1e-12));
    }

    @Test
    void noLineWithoutTwoDistinctPoints() {
        assertThatThrownBy(() -> LinearFit.of(new double[] {1}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two points");
        assertThatThrownBy(() -> LinearFit.of(new double[] {2, 2}, new double[] {1, 5}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
        assertThatThrownBy(() -> LinearFit.of(new double[] {1, 2}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("as many");
    }
}

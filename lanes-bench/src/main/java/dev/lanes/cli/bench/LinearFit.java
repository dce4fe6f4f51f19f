package dev.lanes.cli.bench;

/**
 * A least-squares straight line through points {@code (x, y)}: the slope a soak judges a series
 * by. With {@code x} in minutes the slope is the series' growth per minute.
 *
 * @param slope how much {@code y} grows per unit of {@code x}
 * @param intercept {@code y} at {@code x = 0}
 * @param points how many points the line was fitted to
 */
record LinearFit(double slope, double intercept, int points) {

    /**
     * The line that minimises the squared vertical distances to the points.
     *
     * @throws IllegalArgumentException when there are fewer than two points, the arrays differ in
     *     length, or every {@code x} is the same (no line is defined)
     */
    static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException(
                    "a fit needs as many x as y values: " + x.length + " and " + y.length);
        }
        if (x.length < 2) {
            throw new IllegalArgumentException("a fit needs two points at least, had " + x.length);
        }
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < x.length; i++) {
            meanX += x[i];
            meanY += y[i];
        }
        meanX /= x.length;
        meanY /= x.length;
        // centred sums: the textbook sum-of-products form loses every digit to cancellation when
        // y is a heap size in bytes (1e9) that moves by kilobytes
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            double dx = x[i] - meanX;
            sxy += dx * (y[i] - meanY);
            sxx += dx * dx;
        }
        if (sxx == 0) {
            throw new IllegalArgumentException("a fit needs at least two distinct x values");
        }
        double slope = sxy / sxx;
        return new LinearFit(slope, meanY - slope * meanX, x.length);
    }

    /** The line's value at {@code x}. */
    double at(double x) {
        return intercept + slope * x;
    }
}

package dev.lanes.cli.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A latency-percentile chart as inline SVG: the percentiles p50, p90, p99, p99.9 and the maximum
 * along the x axis, latency on a logarithmic y axis (one gridline per decade, since tails are
 * orders of magnitude above medians), one line per system with a dot per percentile. Lower is
 * better.
 */
final class PercentileChart {
    /** One system's (or kind's) latencies, in the order of {@link Latency#PERCENTILE_LABELS}. */
    record Series(String name, String color, double[] micros) {}

    static final double WIDTH = 350;
    static final double HEIGHT = 240;
    private static final double LEFT = 58;
    private static final double RIGHT = 16;
    private static final double TOP = 48;
    private static final double BOTTOM = 30;

    private PercentileChart() {}

    private static final double PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    private static final double PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
    private static final double PLOT_BOTTOM = TOP + PLOT_HEIGHT;
    /** The x distance between two percentiles. */
    private static final double STEP = PLOT_WIDTH / (Latency.PERCENTILE_LABELS.length - 1);

    static String render(String title, List<Series> series) {
        Svg svg = new Svg(WIDTH, HEIGHT, title + ": latency percentiles");
        svg.text(0, 16, "start", "chart-title", title);
        legend(svg, series);
        String[] labels = Latency.PERCENTILE_LABELS;
        for (int i = 0; i < labels.length; i++) {
            svg.text(LEFT + i * STEP, PLOT_BOTTOM + 18, "middle", "tick", labels[i]);
        }
        svg.line(LEFT, PLOT_BOTTOM, LEFT + PLOT_WIDTH, PLOT_BOTTOM, "axis");
        svg.line(LEFT, TOP, LEFT, PLOT_BOTTOM, "axis");
        Decades decades = Decades.of(series);
        if (decades == null) {
            svg.text(LEFT + PLOT_WIDTH / 2, TOP + PLOT_HEIGHT / 2, "middle", "empty",
                    "no successful requests");
            return svg.render("chart percentile-chart");
        }
        for (int decade = decades.lo(); decade <= decades.hi(); decade++) {
            double y = decades.y(Math.pow(10, decade));
            svg.line(LEFT, y, LEFT + PLOT_WIDTH, y, "grid");
            svg.text(LEFT - 6, y + 4, "end", "tick", micros(Math.pow(10, decade)));
        }
        for (Series s : series) {
            plot(svg, s, decades);
        }
        return svg.render("chart percentile-chart");
    }

    /** A swatch and the name of each series, left to right above the plot. */
    private static void legend(Svg svg, List<Series> series) {
        double x = LEFT;
        for (Series s : series) {
            svg.rect(x, 24, 12, 12, "swatch", s.color(), null);
            svg.text(x + 16, 34, "start", "legend", s.name());
            x += 24 + 8 * s.name().length();
        }
    }

    /** One series' line and a dot per percentile it has a value for. */
    private static void plot(Svg svg, Series s, Decades decades) {
        String[] labels = Latency.PERCENTILE_LABELS;
        double[] xs = new double[labels.length];
        double[] ys = new double[labels.length];
        String[] tips = new String[labels.length];
        int points = 0;
        for (int i = 0; i < labels.length; i++) {
            double v = s.micros()[i];
            if (v > 0) {
                xs[points] = LEFT + i * STEP;
                ys[points] = decades.y(v);
                tips[points] = s.name() + " " + labels[i] + ": " + micros(v);
                points++;
            }
        }
        if (points == 0) {
            return;
        }
        svg.polyline(Arrays.copyOf(xs, points), Arrays.copyOf(ys, points), "series", s.color(),
                s.name());
        for (int p = 0; p < points; p++) {
            svg.circle(xs[p], ys[p], 3, s.color(), tips[p]);
        }
    }

    /** The logarithmic y axis: whole decades from {@code lo} to {@code hi}, at least one. */
    private record Decades(int lo, int hi) {
        /** The decades that hold every positive value, or null when there is none. */
        static Decades of(List<Series> series) {
            double min = Double.MAX_VALUE;
            double max = 0;
            for (Series s : series) {
                for (double v : s.micros()) {
                    if (v > 0) {
                        min = Math.min(min, v);
                        max = Math.max(max, v);
                    }
                }
            }
            if (max == 0) {
                return null;
            }
            int lo = (int) Math.floor(Math.log10(min));
            int hi = (int) Math.ceil(Math.log10(max));
            return new Decades(lo, hi == lo ? lo + 1 : hi);
        }

        double y(double micros) {
            return PLOT_BOTTOM - PLOT_HEIGHT * (Math.log10(micros) - lo) / (hi - lo);
        }
    }

    /** 1 us, 10 us, 1.5 ms, 2 s: the unit that keeps the number short. */
    static String micros(double micros) {
        if (micros >= 1_000_000) {
            return trim(micros / 1_000_000) + " s";
        }
        if (micros >= 1000) {
            return trim(micros / 1000) + " ms";
        }
        return trim(micros) + " us";
    }

    private static String trim(double value) {
        String s = String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}

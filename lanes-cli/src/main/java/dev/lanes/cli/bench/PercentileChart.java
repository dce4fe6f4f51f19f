package dev.lanes.cli.bench;

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

    static String render(String title, List<Series> series) {
        Svg svg = new Svg(WIDTH, HEIGHT, title + ": latency percentiles");
        svg.text(0, 16, "start", "chart-title", title);
        double x = LEFT;
        for (Series s : series) {
            svg.rect(x, 24, 12, 12, "swatch", s.color(), null);
            svg.text(x + 16, 34, "start", "legend", s.name());
            x += 24 + 8 * s.name().length();
        }

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
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double bottom = TOP + plotHeight;
        String[] labels = Latency.PERCENTILE_LABELS;
        double step = plotWidth / (labels.length - 1);
        for (int i = 0; i < labels.length; i++) {
            svg.text(LEFT + i * step, bottom + 18, "middle", "tick", labels[i]);
        }
        svg.line(LEFT, bottom, LEFT + plotWidth, bottom, "axis");
        svg.line(LEFT, TOP, LEFT, bottom, "axis");
        if (max == 0) {
            svg.text(LEFT + plotWidth / 2, TOP + plotHeight / 2, "middle", "empty",
                    "no successful requests");
            return svg.render("chart percentile-chart");
        }
        int lo = (int) Math.floor(Math.log10(min));
        int hi = (int) Math.ceil(Math.log10(max));
        if (hi == lo) {
            hi = lo + 1;
        }
        for (int decade = lo; decade <= hi; decade++) {
            double y = bottom - plotHeight * (decade - lo) / (hi - lo);
            svg.line(LEFT, y, LEFT + plotWidth, y, "grid");
            svg.text(LEFT - 6, y + 4, "end", "tick", micros(Math.pow(10, decade)));
        }
        for (Series s : series) {
            double[] xs = new double[labels.length];
            double[] ys = new double[labels.length];
            int points = 0;
            for (int i = 0; i < labels.length; i++) {
                double v = s.micros()[i];
                if (v > 0) {
                    xs[points] = LEFT + i * step;
                    ys[points] = bottom - plotHeight * (Math.log10(v) - lo) / (hi - lo);
                    points++;
                }
            }
            if (points == 0) {
                continue;
            }
            svg.polyline(java.util.Arrays.copyOf(xs, points), java.util.Arrays.copyOf(ys, points),
                    "series", s.color(), s.name());
            int p = 0;
            for (int i = 0; i < labels.length; i++) {
                if (s.micros()[i] > 0) {
                    svg.circle(xs[p], ys[p], 3, s.color(),
                            s.name() + " " + labels[i] + ": " + micros(s.micros()[i]));
                    p++;
                }
            }
        }
        return svg.render("chart percentile-chart");
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

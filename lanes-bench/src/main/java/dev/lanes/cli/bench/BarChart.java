package dev.lanes.cli.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A horizontal grouped bar chart as inline SVG: one group per configuration (say "NORMAL, 64
 * threads"), one bar per system in it, a linear axis from zero with round ticks, the value written
 * at the end of each bar and a legend of the systems on top. Used for throughput, where longer is
 * better and zero must stay visible as zero.
 */
final class BarChart {
    /** One bar: the system (or kind) it stands for, its value and its colour. */
    record Bar(String series, double value, String color) {}

    /** The bars of one configuration, under its label. */
    record Group(String label, List<Bar> bars) {}

    static final double WIDTH = 720;
    private static final double LABEL_WIDTH = 190;
    private static final double PLOT_LEFT = LABEL_WIDTH + 10;
    private static final double PLOT_WIDTH = 420;
    private static final double BAR_HEIGHT = 16;
    private static final double BAR_GAP = 4;
    private static final double GROUP_GAP = 14;
    private static final double TOP = 40;
    private static final double AXIS_HEIGHT = 34;

    private BarChart() {}

    /** The chart's SVG; {@code unit} labels the axis and the tooltips ({@code writes/s}). */
    static String render(String title, String unit, List<Group> groups) {
        double plotHeight = 0;
        for (Group g : groups) {
            plotHeight += g.bars().size() * (BAR_HEIGHT + BAR_GAP) - BAR_GAP + GROUP_GAP;
        }
        double height = TOP + plotHeight + AXIS_HEIGHT;
        Svg svg = new Svg(WIDTH, height, title);
        svg.text(0, 16, "start", "chart-title", title);
        legend(svg, groups);

        double max = 0;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                max = Math.max(max, b.value());
            }
        }
        double[] ticks = ticks(max);
        double top = ticks[ticks.length - 1];
        double bottom = TOP + plotHeight;
        for (double tick : ticks) {
            double x = PLOT_LEFT + PLOT_WIDTH * tick / top;
            svg.line(x, TOP - 4, x, bottom, "grid");
            svg.text(x, bottom + 16, "middle", "tick", number(tick));
        }
        svg.line(PLOT_LEFT, bottom, PLOT_LEFT + PLOT_WIDTH, bottom, "axis");
        svg.text(PLOT_LEFT + PLOT_WIDTH / 2, bottom + 31, "middle", "axis-label", unit);

        double y = TOP + GROUP_GAP / 2;
        for (Group g : groups) {
            double groupHeight = g.bars().size() * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
            svg.text(LABEL_WIDTH, y + groupHeight / 2 + 4, "end", "group-label", g.label());
            for (Bar b : g.bars()) {
                double w = PLOT_WIDTH * b.value() / top;
                svg.rect(PLOT_LEFT, y, w, BAR_HEIGHT, "bar", b.color(),
                        b.series() + ": " + number(b.value()) + " " + unit);
                svg.text(PLOT_LEFT + w + 4, y + BAR_HEIGHT - 4, "start", "value",
                        number(b.value()));
                y += BAR_HEIGHT + BAR_GAP;
            }
            y += GROUP_GAP - BAR_GAP;
        }
        return svg.render("chart bar-chart");
    }

    private static void legend(Svg svg, List<Group> groups) {
        Map<String, String> colors = new LinkedHashMap<>();
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                colors.putIfAbsent(b.series(), b.color());
            }
        }
        double x = PLOT_LEFT;
        for (Map.Entry<String, String> e : colors.entrySet()) {
            svg.rect(x, 20, 12, 12, "swatch", e.getValue(), null);
            svg.text(x + 16, 30, "start", "legend", e.getKey());
            x += 24 + 8 * e.getKey().length();
        }
    }

    /**
     * Round ticks from 0 to at least {@code max}, about five of them: steps of 1, 2 or 5 times a
     * power of ten.
     */
    static double[] ticks(double max) {
        if (!(max > 0)) {
            return new double[] {0, 1};
        }
        double rough = max / 5;
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        double step = 10 * power;
        for (double m : new double[] {1, 2, 5}) {
            if (m * power >= rough) {
                step = m * power;
                break;
            }
        }
        int steps = (int) Math.ceil(max / step - 1e-9);
        double[] ticks = new double[steps + 1];
        for (int i = 0; i <= steps; i++) {
            // multiplied, not summed: 0.1 added up drifts away from round values
            ticks[i] = i * step;
        }
        return ticks;
    }

    private static String number(double value) {
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2fM", value / 1_000_000);
        }
        if (value >= 10_000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, value >= 100 || value == Math.rint(value)
                ? "%,.0f" : "%,.1f", value);
    }
}

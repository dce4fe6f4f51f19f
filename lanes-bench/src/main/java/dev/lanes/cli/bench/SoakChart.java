package dev.lanes.cli.bench;

import java.util.List;
import java.util.Locale;

/**
 * One series of a soak as inline SVG: its samples over the elapsed minutes as a line from a
 * zero-based axis (so that noise on a large level looks as small as it is), and the fitted line
 * of the verdict drawn dashed over the second half, where it was fitted. The title carries the
 * slope and the threshold.
 */
final class SoakChart {
    static final double WIDTH = 350;
    static final double HEIGHT = 200;
    private static final double LEFT = 58;
    private static final double RIGHT = 16;
    private static final double TOP = 44;
    private static final double BOTTOM = 30;
    private static final String LINE = "#2563eb";
    private static final String FIT = "#ea580c";
    private static final String FAILED_FIT = "#b91c1c";

    private SoakChart() {}

    static String render(SoakSeries series, List<SoakSample> samples, SoakVerdict.Growth growth) {
        String unit = series.unit().isEmpty() ? "" : " (" + series.unit() + ")";
        String slope = "second half " + growth.rate() + ", at most " + series.threshold();
        Svg svg = new Svg(WIDTH, HEIGHT, series.label() + unit + ": " + slope);
        svg.text(0, 16, "start", "chart-title", series.label() + unit);
        svg.text(0, 32, "start", growth.passed() ? "legend" : "legend bad", slope);
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double bottom = TOP + plotHeight;
        svg.line(LEFT, bottom, LEFT + plotWidth, bottom, "axis");
        svg.line(LEFT, TOP, LEFT, bottom, "axis");
        double lastMinute = samples.get(samples.size() - 1).elapsedSeconds() / 60;
        double xSpan = lastMinute > 0 ? lastMinute : 1;
        svg.text(LEFT, bottom + 18, "middle", "tick", "0");
        svg.text(LEFT + plotWidth, bottom + 18, "middle", "tick",
                SoakVerdict.clock(lastMinute * 60));
        if (growth.slopePerMinute() == null) {
            svg.text(LEFT + plotWidth / 2, TOP + plotHeight / 2, "middle", "empty",
                    "not measured on this system");
            return svg.render("chart soak-chart");
        }
        double[] xs = new double[samples.size()];
        double[] ys = new double[samples.size()];
        double max = 0;
        for (SoakSample s : samples) {
            max = Math.max(max, series.value(s));
        }
        double[] ticks = BarChart.ticks(max);
        double top = ticks[ticks.length - 1];
        for (double tick : ticks) {
            double y = bottom - plotHeight * tick / top;
            svg.line(LEFT, y, LEFT + plotWidth, y, "grid");
            svg.text(LEFT - 6, y + 4, "end", "tick", number(tick));
        }
        for (int i = 0; i < samples.size(); i++) {
            SoakSample s = samples.get(i);
            xs[i] = LEFT + plotWidth * (s.elapsedSeconds() / 60) / xSpan;
            ys[i] = bottom - plotHeight * series.value(s) / top;
        }
        svg.polyline(xs, ys, "series", LINE, series.label());
        List<SoakSample> half = SoakVerdict.secondHalf(samples);
        LinearFit fit = SoakVerdict.fit(series, half);
        double[] fitX = {half.get(0).elapsedSeconds() / 60,
            half.get(half.size() - 1).elapsedSeconds() / 60};
        double[] fitY = {fit.at(fitX[0]), fit.at(fitX[1])};
        double[] px = new double[2];
        double[] py = new double[2];
        for (int i = 0; i < 2; i++) {
            px[i] = LEFT + plotWidth * fitX[i] / xSpan;
            py[i] = bottom - plotHeight * Math.max(0, Math.min(top, fitY[i])) / top;
        }
        svg.polyline(px, py, "fit", growth.passed() ? FIT : FAILED_FIT,
                "fit over the second half: " + growth.rate());
        return svg.render("chart soak-chart");
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, value >= 100 || value == Math.rint(value)
                ? "%,.0f" : "%,.1f", value);
    }
}

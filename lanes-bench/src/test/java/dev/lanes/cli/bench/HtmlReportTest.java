package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class HtmlReportTest {
    private final String html = HtmlReport.render(ReportFixtures.sample());

    @Test
    void everyScenarioGetsAThroughputChartAndALatencyChartPerConfiguration() throws Exception {
        SvgStructure svg = SvgStructure.parse(html);

        assertThat(svg.chartsOfClass("bar-chart")).hasSize(ReportFixtures.BAR_CHARTS);
        assertThat(svg.chartsOfClass("percentile-chart")).hasSize(ReportFixtures.PERCENTILE_CHARTS);
        assertThat(svg.count("rect", "bar")).isEqualTo(ReportFixtures.BARS);
        assertThat(svg.count("path", "series"))
                .isEqualTo(ReportFixtures.SERIES + ReportFixtures.SOAK_CHARTS);
        assertThat(svg.charts).hasSize(ReportFixtures.CHARTS);
        for (Element chart : svg.charts) {
            assertThat(chart.getNamespaceURI()).isEqualTo(SvgStructure.SVG_NS);
            assertThat(Double.parseDouble(chart.getAttribute("width"))).isPositive();
            assertThat(Double.parseDouble(chart.getAttribute("height"))).isPositive();
            // an accessible name on every chart
            assertThat(chart.getElementsByTagNameNS(SvgStructure.SVG_NS, "title").getLength())
                    .isPositive();
        }
    }

    @Test
    void theTopSaysWhatItRanOn() {
        String top = html.substring(0, html.indexOf("<section"));

        assertThat(top).contains("2 CPUs (AMD EPYC)", "24.0 GiB memory", "17.0.15",
                "SQLite", "3.53.4 (sqlite-jdbc 3.53.4.0)", "ext4");
    }

    @Test
    void thePageLoadsNothingAndRunsNoScript() {
        assertThat(html).doesNotContain("<script", "<link", "@import", "<img", "<iframe");
        // the one URL is the SVG namespace, a name that is never fetched
        assertThat(html.replace("http://www.w3.org/2000/svg", ""))
                .doesNotContain("http:", "https:", "url(");
    }

    @Test
    void textIsEscaped() {
        assertThat(html).contains("compares &lt;with&gt; &quot;quotes&quot; &amp; ampersands")
                .doesNotContain("<with>");
    }

    @Test
    void aBaselineThatCompletedNothingStillDrawsAndSaysSo() throws Exception {
        SvgStructure svg = SvgStructure.parse(html);

        assertThat(html).contains("SQLITE_BUSY=9000");
        // the rtw chart: lanes has a line, hikari none; its zero bar is still a bar
        assertThat(svg.count("rect", "bar")).isEqualTo(ReportFixtures.BARS);
        assertThat(html).contains("<td class=\"n\">n/a</td>");
    }

    @Test
    void repeatedRunsAreChartedAsMediansAndListedOneByOne() throws Exception {
        String repeated = HtmlReport.render(RepeatedFixtures.report());
        SvgStructure svg = SvgStructure.parse(repeated);

        // one chart per configuration and one bar per system, whatever the repetitions
        assertThat(svg.chartsOfClass("bar-chart")).hasSize(2);
        assertThat(svg.chartsOfClass("percentile-chart")).hasSize(3);
        // write: 2 configurations x 2 systems; tenants: lanes all, read, write, and raw
        assertThat(svg.count("rect", "bar")).isEqualTo(4 + 4);
        assertThat(repeated).contains("lanes: 120,000 writes/s", "hikari: 50,000 writes/s")
                .doesNotContain("lanes: 130,000 writes/s");
        assertThat(repeated).contains("--repeat 3", "medians of 3 runs",
                "median (min-max) of 3 repetition pairs");
        assertThat(repeated).contains("<td class=\"n\">2.00x (2.00-3.25)</td>",
                "<td class=\"n\">0.88x (0.75-1.00, 1 n/a)</td>");
        // the runs table: every repetition with its number, its own check
        String runs = repeated.substring(repeated.indexOf("<h3>Runs</h3>"));
        runs = runs.substring(0, runs.indexOf("</table>"));
        assertThat(runs).contains("<th>repeat</th>");
        assertThat(runs.split("<tr><td>", -1)).hasSize(1 + 12);
        assertThat(runs).contains("<td class=\"n\">2/3</td><td class=\"n\">130,000</td>",
                "MISMATCH rows in bench: 10 acknowledged, 9 found");
        String tenants = repeated.substring(repeated.indexOf("id=\"scenario-tenants\""));
        assertThat(tenants).contains("Footprint", "10.0 KiB", "20.0 KiB", "30.0 KiB");
    }

    @Test
    void aSingleRunHasNoRepeatColumn() {
        assertThat(html).contains("--repeat 1").doesNotContain("<th>repeat</th>", "median");
    }

    @Test
    void tenantsShowTheirFootprint() {
        String tenants = html.substring(html.indexOf("id=\"scenario-tenants\""));

        assertThat(tenants).contains("Footprint", "64 / 64", "2,100", "48.8 KiB", "164.1 KiB",
                "lanes read", "lanes write");
    }

    @Test
    void aSoakShowsItsVerdictAChartPerSeriesWithItsFitAndEverySample() throws Exception {
        String soak = html.substring(html.indexOf("id=\"scenario-soak\""));
        SvgStructure svg = SvgStructure.parse(soak);

        assertThat(svg.chartsOfClass("soak-chart")).hasSize(SoakSeries.values().length);
        // the fitted line of each series over the second half, beside its samples
        assertThat(svg.count("path", "fit")).isEqualTo(SoakSeries.values().length);
        assertThat(soak).contains("NORMAL: passed, nothing grew without bound",
                "check (slopes from 5:00 to 10:00)", "at most 2 MiB/min",
                "budget 300 + 8 clients + 64 pool threads opening",
                "external checkpoints: 480 completed, 2 busy, 0 failed")
                .doesNotContain("class=\"bad\"");
        String samples = soak.substring(soak.indexOf("<table class=\"soak-samples\">"));
        samples = samples.substring(0, samples.indexOf("</table>"));
        // a header row and 61 samples
        assertThat(samples.split("<tr>", -1)).hasSize(1 + 1 + 61);
        assertThat(html).contains("soak at NORMAL 600.0s, a sample every 10.0s");
    }

    @Test
    void aFailedSoakSaysSoAndMarksWhatGrew() {
        BenchReport report = ReportFixtures.sample();
        String failed = HtmlReport.render(new BenchReport(report.environment(), report.settings(),
                report.scenarios(), report.runs(), report.comparisons(),
                java.util.List.of(SoakFixtures.leaking())));
        String soak = failed.substring(failed.indexOf("id=\"scenario-soak\""));

        assertThat(soak).contains("NORMAL: <span class=\"bad\">FAILED</span>",
                "<tr><td>heap after GC</td><td class=\"n\">+146.48 MiB/min</td>"
                        + "<td>at most 2 MiB/min</td><td class=\"bad\">FAILED</td></tr>");
        assertThat(soak.split("class=\"bad\">FAILED", -1)).as("only the heap failed")
                .hasSize(1 + 2);
    }

    @Test
    void theWriteScenarioPublishesItsP50P99AndP999ByWriters() {
        String table = html.substring(html.indexOf("<table class=\"tail-latency\">"));
        table = table.substring(0, table.indexOf("</table>"));

        assertThat(table).contains("<th>p50 us</th><th>p99 us</th><th>p99.9 us</th>");
        // the fixtures' 64 Lanes writers: p50 30, p99 900, p99.9 three times that
        assertThat(table).contains("<tr><td>NORMAL</td><td class=\"n\">64</td><td>lanes</td>"
                + "<td class=\"n\">120,000</td><td class=\"n\">30.0</td>"
                + "<td class=\"n\">900.0</td><td class=\"n\">2,700.0</td></tr>");
        // a lone writer first, then 64; Lanes before its baseline
        assertThat(table.indexOf("<td class=\"n\">1</td><td>lanes</td>"))
                .isLessThan(table.indexOf("<td class=\"n\">1</td><td>raw</td>"))
                .isLessThan(table.indexOf("<td class=\"n\">64</td><td>lanes</td>"));
        assertThat(html.indexOf("tail-latency")).as("once, in the write scenario's section")
                .isEqualTo(html.lastIndexOf("tail-latency"));
    }
}

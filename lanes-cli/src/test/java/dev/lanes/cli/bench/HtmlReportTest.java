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
        assertThat(svg.count("path", "series")).isEqualTo(ReportFixtures.SERIES);
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
    void tenantsShowTheirFootprint() {
        String tenants = html.substring(html.indexOf("id=\"scenario-tenants\""));

        assertThat(tenants).contains("Footprint", "64 / 64", "2,100", "48.8 KiB", "164.1 KiB",
                "lanes read", "lanes write");
    }
}

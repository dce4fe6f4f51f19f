package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the report in headless Chromium and checks that its charts render: the SVG elements are
 * in the DOM Chromium built, and each chart was laid out with a size and with visible shapes
 * (measured by a probe script added to a copy of the page; the report itself runs none). When no
 * Chromium can be had (not root, no apt-get, no mirror in time), the test says so and checks the
 * charts' SVG structure with an XML parser instead, which still fails on a malformed chart.
 */
class HtmlReportChromiumTest {
    private static final String PROBE = "<script>(function(){var out=[];"
            + "document.querySelectorAll('svg.chart').forEach(function(svg){"
            + "var r=svg.getBoundingClientRect();var shapes=0;"
            + "svg.querySelectorAll('rect.bar,path.series,circle').forEach(function(e){"
            + "var b=e.getBBox();if(b.width>0||b.height>0){shapes++;}});"
            + "out.push(Math.round(r.width)+','+Math.round(r.height)+','+shapes);});"
            + "var pre=document.createElement('pre');pre.id='render-check';"
            + "pre.textContent=out.join(';');document.body.appendChild(pre);})();</script>";

    @TempDir
    Path dir;

    @Test
    // the bound covers installing Chromium (at most its own budget) and one page load
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void chartsRenderInHeadlessChromium() throws Exception {
        String html = HtmlReport.render(ReportFixtures.sample());
        Path target = Path.of("target");
        Files.createDirectories(target);
        StringBuilder why = new StringBuilder();
        Optional<Chromium> chromium = Chromium.findOrInstall(target, why);

        if (chromium.isEmpty()) {
            System.err.println("HtmlReportChromiumTest: NOTICE: no headless Chromium (" + why
                    + "); checking the charts' SVG structure with an XML parser instead");
            SvgStructure svg = SvgStructure.parse(html);
            assertThat(svg.charts).hasSize(ReportFixtures.CHARTS);
            assertThat(svg.count("rect", "bar")).isEqualTo(ReportFixtures.BARS);
            assertThat(svg.count("path", "series"))
                    .isEqualTo(ReportFixtures.SERIES + ReportFixtures.SOAK_CHARTS);
            return;
        }

        Path page = dir.resolve("report.html");
        Files.writeString(page, html.replace("</body>", PROBE + "</body>"));
        String dom = chromium.get().dumpDom(page, dir, Duration.ofSeconds(90));

        // the elements are in the DOM Chromium built from the page
        assertThat(count(dom, "<svg\\b")).isEqualTo(ReportFixtures.CHARTS);
        assertThat(count(dom, "<rect\\b[^>]*class=\"bar\"")).isEqualTo(ReportFixtures.BARS);
        assertThat(count(dom, "<path\\b[^>]*class=\"series\""))
                .isEqualTo(ReportFixtures.SERIES + ReportFixtures.SOAK_CHARTS);

        // and they were laid out: every chart has a size and visible shapes
        Matcher check = Pattern.compile("<pre id=\"render-check\">([^<]*)</pre>").matcher(dom);
        assertThat(check.find()).as("the probe's result in the DOM:%n%s", dom).isTrue();
        String[] charts = check.group(1).split(";");
        assertThat(charts).hasSize(ReportFixtures.CHARTS);
        int shapes = 0;
        for (String chart : charts) {
            String[] f = chart.split(",");
            assertThat(Integer.parseInt(f[0])).as("width of %s", chart).isPositive();
            assertThat(Integer.parseInt(f[1])).as("height of %s", chart).isPositive();
            assertThat(Integer.parseInt(f[2])).as("visible shapes of %s", chart).isPositive();
            shapes += Integer.parseInt(f[2]);
        }
        // every bar, line and dot of the fixture is visible (dots: 5 per latency line; a soak
        // chart's line of samples)
        assertThat(shapes).isEqualTo(ReportFixtures.BARS + ReportFixtures.SERIES * 6
                + ReportFixtures.SOAK_CHARTS);
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}

package dev.lanes.cli.bench;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The charts of a report page, each parsed as a standalone XML document with the JDK's
 * namespace-aware parser: a chart that is not well-formed SVG fails the parse. Used by the
 * report tests, and by the Chromium test when no Chromium can be had.
 */
final class SvgStructure {
    static final String SVG_NS = "http://www.w3.org/2000/svg";
    private static final Pattern SVG = Pattern.compile("<svg\\b.*?</svg>", Pattern.DOTALL);

    final List<Element> charts = new ArrayList<>();

    private SvgStructure() {}

    static SvgStructure parse(String html) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        // no DTDs and no external entities: nothing but the fragment itself is read
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        SvgStructure structure = new SvgStructure();
        Matcher m = SVG.matcher(html);
        while (m.find()) {
            Document doc = builder.parse(new InputSource(new StringReader(m.group())));
            structure.charts.add(doc.getDocumentElement());
        }
        return structure;
    }

    /** The charts whose class list holds {@code cssClass}. */
    List<Element> chartsOfClass(String cssClass) {
        List<Element> result = new ArrayList<>();
        for (Element chart : charts) {
            if ((" " + chart.getAttribute("class") + " ").contains(" " + cssClass + " ")) {
                result.add(chart);
            }
        }
        return result;
    }

    /** SVG elements named {@code name} with {@code cssClass} in all the charts. */
    int count(String name, String cssClass) {
        int n = 0;
        for (Element chart : charts) {
            NodeList list = chart.getElementsByTagNameNS(SVG_NS, name);
            for (int i = 0; i < list.getLength(); i++) {
                if (cssClass == null || ((Element) list.item(i)).getAttribute("class").equals(cssClass)) {
                    n++;
                }
            }
        }
        return n;
    }
}

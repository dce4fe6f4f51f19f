package dev.lanes.cli.bench;

import java.util.Locale;

/**
 * Writes one SVG element by hand: shapes and text appended in drawing order, coordinates in
 * pixels with one decimal, every text and attribute value escaped. The result is well-formed XML
 * in the SVG namespace, so it renders inline in an HTML page and parses as a standalone document.
 * It carries a {@code <title>} (its accessible name) and {@code role="img"}.
 *
 * <p>Not thread-safe; one per chart.
 */
final class Svg {
    private final double width;
    private final double height;
    private final String title;
    private final StringBuilder body = new StringBuilder();

    Svg(double width, double height, String title) {
        this.width = width;
        this.height = height;
        this.title = title;
    }

    /** A rectangle; {@code tooltip} (may be null) shows on hover. */
    Svg rect(double x, double y, double w, double h, String cssClass, String fill, String tooltip) {
        body.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y))
                .append("\" width=\"").append(n(Math.max(0, w))).append("\" height=\"")
                .append(n(Math.max(0, h))).append('"');
        attribute("class", cssClass);
        attribute("fill", fill);
        closeWithTooltip("rect", tooltip);
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String cssClass) {
        body.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1))
                .append("\" x2=\"").append(n(x2)).append("\" y2=\"").append(n(y2)).append('"');
        attribute("class", cssClass);
        body.append("/>");
        return this;
    }

    /** A path through {@code xs}/{@code ys}, as straight segments, stroked in {@code stroke}. */
    Svg polyline(double[] xs, double[] ys, String cssClass, String stroke, String tooltip) {
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < xs.length; i++) {
            d.append(i == 0 ? "M" : " L").append(n(xs[i])).append(' ').append(n(ys[i]));
        }
        body.append("<path d=\"").append(d).append('"');
        attribute("class", cssClass);
        attribute("stroke", stroke);
        body.append(" fill=\"none\"");
        closeWithTooltip("path", tooltip);
        return this;
    }

    Svg circle(double cx, double cy, double r, String fill, String tooltip) {
        body.append("<circle cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy))
                .append("\" r=\"").append(n(r)).append('"');
        attribute("fill", fill);
        closeWithTooltip("circle", tooltip);
        return this;
    }

    /** Text at {@code (x, y)}; {@code anchor} is {@code start}, {@code middle} or {@code end}. */
    Svg text(double x, double y, String anchor, String cssClass, String text) {
        body.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append('"');
        attribute("text-anchor", anchor);
        attribute("class", cssClass);
        body.append('>').append(escape(text)).append("</text>");
        return this;
    }

    /** The whole {@code <svg>} element, with {@code cssClass} on it for the page's styles. */
    String render(String cssClass) {
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"").append(n(width))
                .append("\" height=\"").append(n(height)).append("\" viewBox=\"0 0 ")
                .append(n(width)).append(' ').append(n(height)).append('"');
        if (cssClass != null) {
            s.append(" class=\"").append(escape(cssClass)).append('"');
        }
        s.append("><title>").append(escape(title)).append("</title>");
        return s.append(body).append("</svg>").toString();
    }

    private void attribute(String name, String value) {
        if (value != null) {
            body.append(' ').append(name).append("=\"").append(escape(value)).append('"');
        }
    }

    private void closeWithTooltip(String element, String tooltip) {
        if (tooltip == null) {
            body.append("/>");
        } else {
            body.append("><title>").append(escape(tooltip)).append("</title></")
                    .append(element).append('>');
        }
    }

    private static String n(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** Escapes text for XML and HTML content and attribute values alike. */
    static String escape(String text) {
        StringBuilder s = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&':
                    s.append("&amp;");
                    break;
                case '<':
                    s.append("&lt;");
                    break;
                case '>':
                    s.append("&gt;");
                    break;
                case '"':
                    s.append("&quot;");
                    break;
                case '\'':
                    s.append("&#39;");
                    break;
                default:
                    // control characters are not allowed in XML 1.0; they never mean anything here
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        s.append(' ');
                    } else {
                        s.append(c);
                    }
            }
        }
        return s.toString();
    }
}

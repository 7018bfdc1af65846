package dev.mailrun.http.status;

import dev.mailrun.http.server.Html;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Small pieces of inline SVG and number formatting for the status page's charts; every text is escaped. */
final class Svg {

    static final int WIDTH = 720;
    static final int LEFT = 78;
    static final int RIGHT = 12;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final StringBuilder out = new StringBuilder();

    /** An {@code <svg role="img">} labelled by its own title and description. */
    Svg(String id, String cssClass, int height, String title, String desc) {
        out.append("<svg class=\"chart ").append(cssClass).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\" role=\"img\" aria-labelledby=\"").append(id).append("-title ").append(id)
                .append("-desc\" xmlns=\"http://www.w3.org/2000/svg\">\n<title id=\"").append(id).append("-title\">")
                .append(Html.escape(title)).append("</title>\n<desc id=\"").append(id).append("-desc\">")
                .append(Html.escape(desc)).append("</desc>\n");
    }

    Svg raw(String markup) {
        out.append(markup);
        return this;
    }

    Svg rect(double x, double y, double w, double h, String cssClass, String tooltip) {
        out.append("<rect class=\"").append(cssClass).append("\" x=\"").append(n(x)).append("\" y=\"").append(n(y))
                .append("\" width=\"").append(n(Math.max(w, 0))).append("\" height=\"").append(n(Math.max(h, 0))).append('"');
        if (tooltip == null) {
            out.append("/>\n");
        } else {
            out.append("><title>").append(Html.escape(tooltip)).append("</title></rect>\n");
        }
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String cssClass) {
        out.append("<line class=\"").append(cssClass).append("\" x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1))
                .append("\" x2=\"").append(n(x2)).append("\" y2=\"").append(n(y2)).append("\"/>\n");
        return this;
    }

    Svg text(double x, double y, String anchor, String cssClass, String text) {
        out.append("<text class=\"").append(cssClass).append("\" x=\"").append(n(x)).append("\" y=\"").append(n(y))
                .append("\" text-anchor=\"").append(anchor).append("\">").append(Html.escape(text)).append("</text>\n");
        return this;
    }

    String end() {
        return out.append("</svg>\n").toString();
    }

    static String n(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    static String clock(Instant t) {
        return CLOCK.format(t);
    }

    static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e12 ? String.format(Locale.ROOT, "%,d", (long) d)
                : String.format(Locale.ROOT, "%,.1f", d);
    }

    static String duration(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    /** A linear time axis from {@code from} to {@code to} over the plot area. */
    record TimeScale(Instant from, Instant to) {
        double x(Instant t) {
            double span = Math.max(1, Duration.between(from, to).toMillis());
            double at = Duration.between(from, t).toMillis();
            return LEFT + Math.min(Math.max(at / span, 0), 1) * (WIDTH - LEFT - RIGHT);
        }
    }
}

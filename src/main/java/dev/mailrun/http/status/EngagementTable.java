package dev.mailrun.http.status;

import dev.mailrun.campaign.report.Engagement;
import dev.mailrun.http.server.Html;
import java.util.Locale;

/** A tracked campaign's opens and clicks on the status page: people and machines in separate columns. */
final class EngagementTable {

    private EngagementTable() {
    }

    static void render(StringBuilder html, Engagement e) {
        html.append("<h3>Engagement (").append(Html.escape(e.mode().text())).append(")</h3>\n")
                .append("<table class=\"errors\"><thead><tr><th></th><th>human unique</th><th>human total</th>"
                        + "<th>machine</th><th>scanner</th><th>unknown</th></tr></thead><tbody>\n");
        row(html, "opens", e.opens());
        row(html, "clicks", e.clicks());
        for (Engagement.LinkLine l : e.links()) {
            row(html, "link " + l.index() + ": " + l.url(), l.clicks());
        }
        html.append("</tbody></table>\n<p class=\"meta\">machine share of opens: ")
                .append(e.machineShareOfOpens().map(x -> String.format(Locale.ROOT, "%.0f%%", x * 100)).orElse("-"))
                .append("</p>\n");
    }

    private static void row(StringBuilder html, String name, Engagement.Figures f) {
        html.append("<tr><td>").append(Html.escape(name)).append("</td><td>").append(Svg.number(f.humanUnique()))
                .append("</td><td>").append(Svg.number(f.humanTotal())).append("</td><td>").append(Svg.number(f.machineTotal()))
                .append("</td><td>").append(Svg.number(f.scannerTotal())).append("</td><td>").append(Svg.number(f.unknownTotal()))
                .append("</td></tr>\n");
    }
}

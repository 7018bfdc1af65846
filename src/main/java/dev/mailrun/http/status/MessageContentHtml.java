package dev.mailrun.http.status;

import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.variant.AbReport;
import dev.mailrun.http.server.Html;

/**
 * The part of a campaign's section on the status page and in {@code campaign report --html} about
 * what its messages carry: the attached files (name, type, size) and the A/B variants with their figures.
 */
final class MessageContentHtml {

    private MessageContentHtml() {
    }

    static void append(StringBuilder html, CampaignReport r) {
        if (!r.attachments().isEmpty()) {
            html.append("<h3>Attachments</h3>\n<table class=\"attachments\"><thead><tr><th>file</th><th>type</th><th>bytes</th>"
                    + "</tr></thead><tbody>\n");
            for (Attachment.Summary a : r.attachments()) {
                html.append("<tr><td>").append(Html.escape(a.filename())).append(a.inline() ? " (inline)" : "").append("</td><td>")
                        .append(Html.escape(a.contentType())).append("</td><td>").append(Svg.number(a.size())).append("</td></tr>\n");
            }
            html.append("</tbody></table>\n");
        }
        r.ab().ifPresent(ab -> variants(html, ab));
    }

    /** Each variant's test share's figures (what the winner was picked by), then the rest's, sent the winner. */
    private static void variants(StringBuilder html, AbReport ab) {
        html.append("<h3>A/B variants</h3>\n<p class=\"meta\">").append(Html.escape(ab.settings())).append(" · winner: ")
                .append(Html.escape(ab.winner())).append("</p>\n<table class=\"variants\"><thead><tr><th>variant</th>"
                        + "<th>recipients of</th><th>sent</th><th>delivered</th><th>bounces</th><th>complaints</th><th>unsubscribes</th><th>")
                .append(Html.escape(ab.measure())).append(" (95%)</th></tr></thead><tbody>\n");
        for (AbReport.Line l : ab.variants()) {
            row(html, l.name() + (l.winner() ? " (winner)" : ""), "test share", l.test());
        }
        for (AbReport.Line l : ab.variants()) {
            l.rest().ifPresent(rest -> row(html, l.name() + " (winner)", "rest", rest));
        }
        html.append("</tbody></table>\n");
    }

    private static void row(StringBuilder html, String variant, String group, AbReport.Figures f) {
        html.append("<tr><td>").append(Html.escape(variant)).append("</td><td>").append(group).append("</td><td>")
                .append(Svg.number(f.sent())).append("</td><td>").append(Svg.number(f.delivered())).append("</td><td>")
                .append(Svg.number(f.bounces())).append("</td><td>").append(Svg.number(f.complaints())).append("</td><td>")
                .append(Svg.number(f.unsubscribes())).append("</td><td>").append(Html.escape(f.measure().toString()))
                .append("</td></tr>\n");
    }
}

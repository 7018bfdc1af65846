package dev.mailrun.http.status;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.http.server.Html;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The status page for people: every campaign with its progress, counts, rates and ETA, and its three
 * charts ({@link StatusCharts}: the run timeline, messages per minute against the configured rate,
 * and outcomes with the hard-bounce rate against its threshold). One self-contained HTML document: no
 * script, no external resource, so it works offline, as a file ({@code campaign report --html}) and
 * under a {@code default-src 'none'} policy. Every value from the database is escaped.
 */
public final class StatusPage {

    private StatusPage() {}

    /** @param refresh how often the page reloads itself; empty for a file, which stays as it is */
    public static String render(List<CampaignReport> reports, Optional<Duration> refresh) {
        Instant at = reports.stream().map(CampaignReport::at).max(Instant::compareTo).orElse(null);
        String title = reports.size() == 1 ? "mailrun: " + reports.get(0).campaign().name() : "mailrun status";
        StringBuilder html = new StringBuilder(8_192);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"robots\" content=\"noindex\">\n");
        refresh.ifPresent(r -> html.append("<meta http-equiv=\"refresh\" content=\"").append(r.toSeconds()).append("\">\n"));
        html.append("<title>").append(Html.escape(title)).append("</title>\n<style>").append(StatusStyle.CSS)
                .append("</style></head>\n<body>\n<header><h1>").append(Html.escape(title)).append("</h1><p>")
                .append(at == null ? "No campaigns yet." : "As of " + Svg.clock(at) + " UTC, " + at.toString().substring(0, 10))
                .append(refresh.map(r -> "; this page refreshes every " + r.toSeconds() + " s").orElse(""))
                .append(".</p></header>\n<main>\n");
        for (CampaignReport r : reports) {
            campaign(html, r);
        }
        return html.append("</main>\n</body></html>\n").toString();
    }

    private static void campaign(StringBuilder html, CampaignReport r) {
        Campaign c = r.campaign();
        String status = c.status().dbValue();
        long done = r.total() - r.remaining();
        double progress = r.total() == 0 ? 0 : (double) done / r.total();
        html.append("<section class=\"campaign\" id=\"campaign-").append(c.id()).append("\" aria-labelledby=\"campaign-")
                .append(c.id()).append("-name\">\n<h2 id=\"campaign-").append(c.id()).append("-name\"><span class=\"id\">#")
                .append(c.id()).append("</span> ").append(Html.escape(c.name())).append(" <span class=\"badge ")
                .append(status).append("\">").append(status).append("</span></h2>\n");
        html.append("<p class=\"meta\">template ").append(Html.escape(c.template())).append(" · from ")
                .append(Html.escape(c.fromAddress()));
        c.startAt().ifPresent(s -> html.append(" · starts ").append(s));
        html.append("</p>\n");
        c.pauseReason().ifPresent(p -> html.append("<p class=\"paused\">Paused: ").append(Html.escape(p)).append("</p>\n"));
        if (!r.heldBackBy().isEmpty()) {
            html.append("<p class=\"held\">Held back by: ").append(Html.escape(String.join("; ", r.heldBackBy()))).append("</p>\n");
        }
        String pct = String.format(Locale.ROOT, "%.1f", progress * 100);
        html.append("<div class=\"progress\" role=\"progressbar\" aria-label=\"progress\" aria-valuemin=\"0\" aria-valuemax=\"")
                .append(r.total()).append("\" aria-valuenow=\"").append(done).append("\"><div class=\"done\" style=\"width:")
                .append(pct).append("%\"></div></div>\n<p class=\"progress-text\">").append(Svg.number(done)).append(" of ")
                .append(Svg.number(r.total())).append(" done (").append(pct).append("%)</p>\n");
        html.append("<dl class=\"stats\">\n");
        stat(html, "sent", Svg.number(r.counts().get(RecipientStatus.SENT)));
        stat(html, "failed", Svg.number(r.counts().get(RecipientStatus.FAILED)));
        stat(html, "suppressed", Svg.number(r.counts().get(RecipientStatus.SUPPRESSED)));
        stat(html, "unknown", Svg.number(r.counts().get(RecipientStatus.UNKNOWN)));
        stat(html, "waiting", Svg.number(r.counts().get(RecipientStatus.PENDING) + r.counts().get(RecipientStatus.RETRY)
                + r.counts().get(RecipientStatus.SENDING)));
        stat(html, "current rate", r.currentRate().map(StatusPage::rate).orElse("-"));
        stat(html, "average rate", r.averageRate().map(StatusPage::rate).orElse("-"));
        stat(html, "configured", r.configuredRate() > 0 ? rate(r.configuredRate()) : "unlimited");
        stat(html, "ETA", r.eta().text(r.at(), Svg::duration));
        html.append("<div><dt>complaints</dt><dd id=\"complaints-").append(c.id()).append('"')
                .append(r.complaintsOver() ? " class=\"over\"" : "").append('>').append(Svg.number(r.complaintRate().complaints()))
                .append(" (").append(Svg.percent(r.complaintRate().rate())).append(" of ")
                .append(Svg.number(r.complaintRate().sends())).append(" delivered")
                .append(r.complaintThreshold().map(t -> "; pauses above " + Svg.percent(t)).orElse("")).append(")</dd></div>\n");
        html.append("</dl>\n").append(StatusCharts.html(r));
        MessageContentHtml.append(html, r);
        r.engagement().ifPresent(e -> EngagementTable.render(html, e));
        if (!r.topErrors().isEmpty()) {
            html.append("<h3>Most common errors</h3>\n<table class=\"errors\"><thead><tr><th>recipients</th><th>status</th>"
                    + "<th>error</th></tr></thead><tbody>\n");
            r.topErrors().forEach(e -> html.append("<tr><td>").append(Svg.number(e.count())).append("</td><td>")
                    .append(Html.escape(e.status())).append("</td><td>").append(Html.escape(e.error())).append("</td></tr>\n"));
            html.append("</tbody></table>\n");
        }
        html.append("</section>\n");
    }

    private static void stat(StringBuilder html, String name, String value) {
        html.append("<div><dt>").append(Html.escape(name)).append("</dt><dd>").append(Html.escape(value)).append("</dd></div>\n");
    }

    private static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%.1f/s", perSecond);
    }
}

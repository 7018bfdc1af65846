package dev.mailrun.http.console;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.report.Engagement;
import dev.mailrun.campaign.variant.AbReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A campaign's figures as the console's pages print them: numbers, rates, durations, progress, ETA, variants, tracking. */
final class Figures {

    private Figures() {}

    /** One row of the campaigns list, and the head of a campaign's page. */
    static Map<String, Object> summary(CampaignReport r) {
        Campaign c = r.campaign();
        long done = r.total() - r.remaining();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id());
        m.put("name", c.name());
        m.put("status", c.status().dbValue());
        m.put("template", c.template());
        m.put("from", c.fromAddress());
        m.put("total", r.total());
        m.put("done", done);
        m.put("progress", String.format(Locale.ROOT, "%.1f%%", r.total() == 0 ? 0.0 : 100.0 * done / r.total()));
        m.put("currentRate", r.currentRate().map(Figures::rate).orElse("-"));
        m.put("averageRate", r.averageRate().map(Figures::rate).orElse("-"));
        m.put("configuredRate", r.configuredRate() > 0 ? rate(r.configuredRate()) : "unlimited");
        m.put("eta", r.eta().text(r.at(), Figures::duration));
        m.put("heldBackBy", r.heldBackBy());
        m.put("pauseReason", c.pauseReason().orElse(null));
        m.put("sent", r.counts().get(RecipientStatus.SENT));
        m.put("failed", r.counts().get(RecipientStatus.FAILED));
        m.put("unknown", r.counts().get(RecipientStatus.UNKNOWN));
        m.put("suppressed", r.counts().get(RecipientStatus.SUPPRESSED));
        m.put("waiting", r.remaining());
        return m;
    }

    /**
     * A campaign's A/B test as its page shows it: settings, winner and why, what it waits for, each variant's test
     * share's figures (what the winner was picked by), then the rest's, sent the winner.
     */
    static Map<String, Object> ab(AbReport ab) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("settings", ab.settings());
        m.put("winner", ab.winner());
        m.put("waiting", ab.waiting().orElse(""));
        m.put("measure", ab.measure());
        List<Map<String, Object>> rows = new ArrayList<>();
        ab.variants().forEach(l -> rows.add(abRow(l.name(), "test share", l.winner(), l.test())));
        ab.variants().forEach(l -> l.rest().ifPresent(rest -> rows.add(abRow(l.name(), "rest", true, rest))));
        m.put("variants", rows);
        return m;
    }

    private static Map<String, Object> abRow(String name, String group, boolean winner, AbReport.Figures f) {
        return Map.of("name", name, "group", group, "winner", winner, "recipients", f.recipients(), "sent", f.sent(),
                "delivered", f.delivered(), "bounces", f.bounces(), "complaints", f.complaints(), "unsubscribes",
                f.unsubscribes(), "measure", f.measure().toString());
    }

    /** A tracked campaign's opens and clicks, people and machines apart, one row per link too. */
    static Map<String, Object> engagement(Engagement e) {
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(engagementRow("opens", e.opens()));
        rows.add(engagementRow("clicks", e.clicks()));
        e.links().forEach(l -> rows.add(engagementRow("link " + l.index() + ": " + l.url(), l.clicks())));
        return Map.of("mode", e.mode().text(), "rows", rows,
                "machineShare", e.machineShareOfOpens().map(x -> String.format(Locale.ROOT, "%.0f%%", x * 100)).orElse("-"));
    }

    private static Map<String, Object> engagementRow(String name, Engagement.Figures f) {
        return Map.of("name", name, "humanUnique", f.humanUnique(), "humanTotal", f.humanTotal(), "machine", f.machineTotal(),
                "scanner", f.scannerTotal(), "unknown", f.unknownTotal());
    }

    static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%.1f/s", perSecond);
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.2f%%", fraction * 100);
    }

    static String duration(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }
}

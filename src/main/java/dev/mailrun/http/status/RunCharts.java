package dev.mailrun.http.status;

import dev.mailrun.campaign.report.CampaignReport.RunLine;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.http.server.Html;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The two charts drawn from a campaign's run history, on one time axis: the run timeline (each run a
 * bar inside its slot, the deadline marked, any overrun in red) and messages per minute of each run
 * against the configured rate. Each comes with a data table for those who cannot see it.
 */
final class RunCharts {

    private final CampaignReport report;
    private final List<RunLine> runs;      // oldest first
    private final Svg.TimeScale scale;
    private final String id;

    RunCharts(CampaignReport report) {
        this.report = report;
        List<RunLine> oldestFirst = new ArrayList<>(report.history());
        Collections.reverse(oldestFirst);
        this.runs = oldestFirst;
        this.id = "c" + report.campaign().id();
        // The campaign's life as far as its runs tell: from the first slot to the end of the last one.
        Instant from = report.at().minusSeconds(60);
        Instant to = report.at();
        if (!runs.isEmpty()) {
            from = runs.get(0).scheduledFor().orElse(runs.get(0).startedAt());
            to = from;
            for (RunLine r : runs) {
                from = min(from, min(r.scheduledFor().orElse(r.startedAt()), r.startedAt()));
                to = max(to, max(end(r), slotEnd(r)));
            }
        }
        this.scale = new Svg.TimeScale(from, to);
    }

    String timeline() {
        long overran = runs.stream().filter(r -> overrun(r).compareTo(Duration.ZERO) > 0).count();
        String desc = runs.isEmpty() ? "No runs yet."
                : runs.size() + " run(s) from " + Svg.clock(runs.get(0).startedAt()) + " to " + Svg.clock(end(runs.get(runs.size() - 1)))
                + " UTC; " + overran + " finished after the deadline.";
        Svg svg = new Svg(id + "-timeline", "timeline", 96, "Run timeline", desc);
        axis(svg, 78);
        if (runs.isEmpty()) {
            svg.text(Svg.WIDTH / 2.0, 44, "middle", "note", "no runs yet");
        }
        int n = 0;
        for (RunLine r : runs) {
            n++;
            Instant slot = r.scheduledFor().orElse(r.startedAt());
            double slotX = scale.x(slot);
            svg.raw("<g class=\"run\" data-outcome=\"" + Html.escape(r.outcome()) + "\">\n");
            svg.rect(slotX, 14, scale.x(slotEnd(r)) - slotX, 50, "slot", null);
            Instant end = end(r);
            Instant deadline = r.deadline().orElse(end);
            Instant inTime = end.isAfter(deadline) ? deadline : end;
            String tip = "Run " + n + ": " + r.outcome() + ", " + Svg.clock(r.startedAt()) + "–" + Svg.clock(end)
                    + " UTC, " + Svg.number(r.items()) + " messages, deadline " + Svg.clock(deadline)
                    + r.utilisation().map(u -> ", utilisation " + Svg.percent(u)).orElse("")
                    + (overrun(r).isZero() ? "" : ", overrun " + Svg.duration(overrun(r)));
            svg.rect(scale.x(r.startedAt()), 22, Math.max(1.5, scale.x(inTime) - scale.x(r.startedAt())), 34,
                    "bar " + cssOutcome(r.outcome()), tip);
            if (end.isAfter(deadline)) {
                svg.rect(scale.x(deadline), 22, Math.max(1.5, scale.x(end) - scale.x(deadline)), 34, "overrun", tip);
            }
            r.deadline().ifPresent(d -> svg.line(scale.x(d), 10, scale.x(d), 68, "deadline"));
            svg.raw("</g>\n");
        }
        return figure("Run timeline", "Each run (blue) inside its slot (grey); the dashed line is its deadline,"
                + " time past it is red.", svg.end(), timelineTable());
    }

    String rate() {
        double configured = report.configuredRate() * 60;
        double peak = runs.stream().flatMap(r -> r.rate().stream()).mapToDouble(v -> v * 60).max().orElse(0);
        double top = Math.max(Math.max(peak, configured), 1) * 1.15;
        String desc = runs.isEmpty() ? "No runs yet." : "Messages per minute of each of " + runs.size() + " run(s); peak "
                + Svg.number(Math.round(peak)) + " per minute; configured rate "
                + (configured > 0 ? Svg.number(Math.round(configured)) + " per minute." : "unlimited.");
        int height = 150;
        double base = 118;
        double plot = base - 14;
        Svg svg = new Svg(id + "-rate", "rate", height, "Messages per minute", desc);
        axis(svg, base);
        svg.text(Svg.LEFT - 6, base, "end", "tick", "0");
        svg.text(Svg.LEFT - 6, base - plot + 4, "end", "tick", Svg.number(Math.round(top)));
        for (RunLine r : runs) {
            if (r.rate().isEmpty()) {
                continue;
            }
            double perMinute = r.rate().get() * 60;
            double h = perMinute / top * plot;
            svg.rect(scale.x(r.startedAt()), base - h, Math.max(1.5, scale.x(end(r)) - scale.x(r.startedAt())), h, "rate-bar",
                    Svg.clock(r.startedAt()) + " UTC: " + Svg.number(Math.round(perMinute)) + " messages per minute");
        }
        if (configured > 0) {
            double y = base - configured / top * plot;
            svg.line(Svg.LEFT, y, Svg.WIDTH - Svg.RIGHT, y, "target");
            svg.text(Svg.WIDTH - Svg.RIGHT, y - 4, "end", "tick", "configured " + Svg.number(Math.round(configured)) + "/min");
        }
        return figure("Messages per minute", "Each run's messages per minute (items over its duration) against the"
                + " configured rate (line).", svg.end(), rateTable());
    }

    private void axis(Svg svg, double y) {
        svg.line(Svg.LEFT, y, Svg.WIDTH - Svg.RIGHT, y, "axis");
        svg.text(Svg.LEFT, y + 14, "start", "tick", Svg.clock(scale.from()) + " UTC");
        svg.text(Svg.WIDTH - Svg.RIGHT, y + 14, "end", "tick", Svg.clock(scale.to()) + " UTC");
    }

    private String timelineTable() {
        StringBuilder t = new StringBuilder("<table><thead><tr><th>#</th><th>slot</th><th>started</th><th>finished</th>"
                + "<th>deadline</th><th>outcome</th><th>utilisation</th><th>overrun</th></tr></thead><tbody>\n");
        int n = 0;
        for (RunLine r : runs) {
            n++;
            t.append("<tr><td>").append(n).append("</td><td>").append(r.scheduledFor().map(Svg::clock).orElse("-"))
                    .append("</td><td>").append(Svg.clock(r.startedAt())).append("</td><td>")
                    .append(r.finishedAt().map(Svg::clock).orElse("running")).append("</td><td>")
                    .append(r.deadline().map(Svg::clock).orElse("-")).append("</td><td>").append(Html.escape(r.outcome()))
                    .append("</td><td>").append(r.utilisation().map(Svg::percent).orElse("-")).append("</td><td>")
                    .append(overrun(r).isZero() ? "-" : Svg.duration(overrun(r))).append("</td></tr>\n");
        }
        return t.append("</tbody></table>").toString();
    }

    private String rateTable() {
        StringBuilder t = new StringBuilder("<table><thead><tr><th>started</th><th>duration</th><th>messages</th>"
                + "<th>per minute</th></tr></thead><tbody>\n");
        for (RunLine r : runs) {
            t.append("<tr><td>").append(Svg.clock(r.startedAt())).append("</td><td>")
                    .append(r.duration().map(Svg::duration).orElse("running")).append("</td><td>").append(Svg.number(r.items()))
                    .append("</td><td>").append(r.rate().map(v -> Svg.number(Math.round(v * 60))).orElse("-"))
                    .append("</td></tr>\n");
        }
        return t.append("</tbody></table>").toString();
    }

    static String figure(String title, String caption, String svg, String table) {
        return "<figure class=\"chart-figure\">\n<h3>" + Html.escape(title) + "</h3>\n" + svg + "<figcaption><strong>" + Html.escape(title) + ".</strong> "
                + Html.escape(caption) + "</figcaption>\n<details><summary>" + Html.escape(title)
                + " as a table</summary>\n<div class=\"scroll\">" + table + "</div>\n</details>\n</figure>\n";
    }

    private Instant end(RunLine r) {
        return r.finishedAt().orElse(report.at());
    }

    private Instant slotEnd(RunLine r) {
        Instant slot = r.scheduledFor().orElse(r.startedAt());
        return report.slotLength().map(slot::plus).orElse(r.deadline().orElse(end(r)));
    }

    private Duration overrun(RunLine r) {
        Duration measured = r.overrun().orElse(Duration.ZERO);
        Duration past = r.deadline().filter(d -> end(r).isAfter(d)).map(d -> Duration.between(d, end(r))).orElse(Duration.ZERO);
        return measured.compareTo(past) > 0 ? measured : past;
    }

    private static String cssOutcome(String outcome) {
        return switch (outcome) {
            case "succeeded", "running" -> "ok";
            case "stopped" -> "stopped";
            default -> "bad";
        };
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}

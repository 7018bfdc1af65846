package dev.mailrun.app.cli;

import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.report.CampaignReportJson;
import dev.mailrun.campaign.report.Engagement;
import dev.mailrun.campaign.variant.AbReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Counts by status, rates, ETA, what holds it back, pause reason and the last runs of one campaign (or of all).",
                "--json prints the stable machine-readable form documented in docs/STATUS-JSON.md."})
final class StatusCommand extends ContextCommand {

    @Parameters(paramLabel = "ID", arity = "0..1", description = "Campaign id; all campaigns when omitted.")
    Long id;

    @Option(names = "--json", description = "Machine-readable JSON.")
    boolean json;

    @Option(names = "--watch", description = "Redraw every --every until the campaign ends (or Ctrl-C).")
    boolean watch;

    @Option(names = "--every", paramLabel = "SECONDS", description = "Refresh period for --watch (default 2).")
    int every = 2;

    @Override
    int run(Services s) throws Exception {
        if (every < 1) {
            throw new UsageException("--every must be at least 1 second");
        }
        while (true) {
            List<CampaignReport> reports = reports(s);
            boolean ended = reports.stream().allMatch(r -> r.campaign().status().isFinal() || r.remaining() == 0);
            if (!watch || Progress.isTerminal() || ended) {
                if (watch && Progress.isTerminal()) {
                    out().print("\033[H\033[2J");
                }
                print(s, reports);
                out().flush();
            }
            if (!watch || ended) {
                return Cli.OK;
            }
            Thread.sleep(every * 1000L);
        }
    }

    private List<CampaignReport> reports(Services s) throws Exception {
        List<CampaignReport> reports = new ArrayList<>();
        try {
            if (id != null) {
                reports.add(s.reports().report(id));
            } else {
                for (Campaign c : s.campaigns().list()) {
                    reports.add(s.reports().report(c.id()));
                }
            }
        } catch (CampaignException e) {
            throw new UsageException(e.getMessage());
        }
        return reports;
    }

    private void print(Services s, List<CampaignReport> reports) throws Exception {
        PrintWriter out = out();
        if (json) {
            out.println(id != null ? CampaignReportJson.of(reports.get(0)) : CampaignReportJson.of(reports));
            return;
        }
        for (CampaignReport r : reports) {
            text(out, r, r.attachments());
        }
    }

    /**
     * The A/B test: its settings, the winner, each variant's test share's figures with the measure's 95 % interval
     * (what the winner was picked by), then the rest's, sent the winner.
     */
    private static void abLines(PrintWriter out, AbReport ab) {
        out.printf("  A/B: %s; winner: %s%n", ab.settings(), ab.winner());
        for (AbReport.Line l : ab.variants()) {
            abFigures(out, String.format("%-8s%s %-11s", l.name(), l.winner() ? "*" : " ", "test share:"), l.test(), ab.measure());
        }
        for (AbReport.Line l : ab.variants()) {
            l.rest().ifPresent(rest -> abFigures(out, String.format("%-8s* %-11s", l.name(), "rest:"), rest, ab.measure()));
        }
    }

    private static void abFigures(PrintWriter out, String what, AbReport.Figures f, String measure) {
        out.printf("    %s recipients %d, sent %d, delivered %d, bounces %d, complaints %d, unsubscribes %d; %s %s%n", what,
                f.recipients(), f.sent(), f.delivered(), f.bounces(), f.complaints(), f.unsubscribes(), measure, f.measure());
    }

    /** People and machines apart: what a tracked campaign's opens and clicks came to (docs/TRACKING.md). */
    private static void engagement(PrintWriter out, Engagement e) {
        out.printf("  tracking (%s): opens human %d unique / %d total, machine %d, scanner %d, unknown %d; machine share %s%n",
                e.mode().text(), e.opens().humanUnique(), e.opens().humanTotal(), e.opens().machineTotal(),
                e.opens().scannerTotal(), e.opens().unknownTotal(),
                e.machineShareOfOpens().map(x -> String.format(Locale.ROOT, "%.0f%%", x * 100)).orElse("-"));
        out.printf("    clicks human %d unique / %d total, scanner %d, unknown %d%n", e.clicks().humanUnique(),
                e.clicks().humanTotal(), e.clicks().scannerTotal(), e.clicks().unknownTotal());
        for (Engagement.LinkLine l : e.links()) {
            out.printf("    link %d %s: human %d unique / %d total, scanner %d%n", l.index(), l.url(), l.clicks().humanUnique(),
                    l.clicks().humanTotal(), l.clicks().scannerTotal());
        }
    }

    private static void text(PrintWriter out, CampaignReport r, List<Attachment.Summary> attachments) {
        Campaign c = r.campaign();
        long done = r.total() - r.remaining();
        out.printf("campaign %d \"%s\" (%s) — %s%s%n", c.id(), c.name(), c.template(), c.status().dbValue(),
                c.pauseReason().map(p -> ": " + p).orElse(""));
        if (c.windows().isPresent() || c.expireAt().isPresent()) {
            out.printf("  window: %s; expires: %s%n", c.windows().map(Object::toString).orElse("any time"),
                    c.expireAt().map(Object::toString).orElse("never"));
        }
        if (!attachments.isEmpty()) {
            out.printf("  attachments: %s%n", String.join(", ", attachments.stream().map(Object::toString).toList()));
        }
        if (!c.headers().isEmpty()) {
            out.printf("  headers: %s%n", c.headers());
        }
        out.printf("  held back by: %s%n", r.heldBackBy().isEmpty() ? "-" : String.join("; ", r.heldBackBy()));
        r.ab().ifPresent(ab -> abLines(out, ab));
        out.printf("  %s %d/%d done%n", Progress.bar(r.total() == 0 ? 0 : (double) done / r.total(), 30), done, r.total());
        StringBuilder counts = new StringBuilder("  ");
        for (RecipientStatus st : RecipientStatus.values()) {
            counts.append(st.dbValue()).append(' ').append(r.counts().get(st)).append("  ");
        }
        out.println(counts.toString().stripTrailing());
        out.printf("  rate: current %s, average %s, configured %s; ETA %s%n", CampaignCommand.rate(r.currentRate()),
                CampaignCommand.rate(r.averageRate()),
                r.configuredRate() > 0 ? String.format(Locale.ROOT, "%.1f/s", r.configuredRate()) : "unlimited",
                r.eta().text(r.at(), CampaignCommand::duration));
        if (!r.relays().isEmpty()) {
            out.println("  relays:");
            for (CampaignReport.RelayLine l : r.relays()) {
                out.printf("    %-12s %-8s sent %d, failed %d, deferred %d; %s%s%n", l.relay(),
                        l.weight().map(w -> "weight " + w).orElse("-"), l.sent(), l.failed(), l.deferred(), l.state(),
                        l.reason().map(x -> " (" + x + ")").orElse(""));
            }
        }
        r.engagement().ifPresent(e -> engagement(out, e));
        if (!r.topErrors().isEmpty()) {
            out.println("  most common errors:");
            for (ErrorCount e : r.topErrors()) {
                out.printf("    %6d  %-6s %s%n", e.count(), e.status(), e.error());
            }
        }
        if (!r.runs().isEmpty()) {
            out.println("  last runs (newest first):");
            for (CampaignReport.RunLine run : r.runs()) {
                out.printf("    %s  %-15s %s duration %-8s utilisation %-6s overrun %-6s window %-6s gap %-7s"
                                + " waited %s%s%n", run.startedAt(),
                        run.outcome(), counts(run), run.duration().map(CampaignCommand::duration).orElse("-"),
                        run.utilisation().map(u -> String.format(Locale.ROOT, "%.0f%%", u * 100)).orElse("-"),
                        run.overrun().map(o -> o.toMillis() + "ms").orElse("-"),
                        run.windowShare().map(u -> String.format(Locale.ROOT, "%.1f%%", u * 100)).orElse("-"),
                        run.gap().map(g -> g.toMillis() + "ms").orElse("-"),
                        run.waited().map(w -> w.toMillis() + "ms").orElse("-"),
                        run.error().map(e -> "  error: " + e.lines().findFirst().orElse("")).orElse(""));
            }
        }
    }

    /** A run's recipients counted once by what became of them, or its items alone where it has no counts. */
    static String counts(CampaignReport.RunLine run) {
        return run.counts().map(c -> String.format(Locale.ROOT, "sent %d, suppressed %d, failed %d, deferred %d, handed back %d;",
                c.sent(), c.suppressed(), c.failed(), c.deferred(), c.handedBack())).orElse("items " + run.items() + ";");
    }
}

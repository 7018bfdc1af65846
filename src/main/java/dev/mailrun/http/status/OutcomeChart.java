package dev.mailrun.http.status;

import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.report.CampaignReport;
import java.util.List;

/**
 * Where the recipients stand (one stacked bar of their statuses) and the hard-bounce rate against the
 * breaker's threshold ({@code bounce.pause-rate}), with a data table.
 */
final class OutcomeChart {

    /** Statuses in the order they are stacked, each with its legend colour class. */
    private static final List<RecipientStatus> ORDER = List.of(RecipientStatus.SENT, RecipientStatus.FAILED,
            RecipientStatus.SUPPRESSED, RecipientStatus.UNKNOWN, RecipientStatus.EXPIRED, RecipientStatus.RETRY, RecipientStatus.SENDING,
            RecipientStatus.PENDING);

    private OutcomeChart() {}

    static String render(CampaignReport r) {
        String id = "c" + r.campaign().id() + "-outcomes";
        long total = r.total();
        double rate = r.bounceRate().rate();
        double threshold = r.bounceThreshold();
        StringBuilder desc = new StringBuilder();
        for (RecipientStatus st : ORDER) {
            desc.append(st.dbValue()).append(' ').append(Svg.number(r.counts().get(st))).append(", ");
        }
        desc.append("of ").append(Svg.number(total)).append(" recipients. Hard-bounce rate ").append(Svg.percent(rate))
                .append(" over ").append(Svg.number(r.bounceRate().sends())).append(" sends; the campaign pauses above ")
                .append(Svg.percent(threshold)).append('.');
        Svg svg = new Svg(id, "outcomes", 150, "Outcomes and hard-bounce rate", desc.toString());
        double width = Svg.WIDTH - Svg.LEFT - Svg.RIGHT;
        svg.text(Svg.LEFT - 6, 32, "end", "tick", "recipients");
        double x = Svg.LEFT;
        for (RecipientStatus st : ORDER) {
            long n = r.counts().get(st);
            if (n == 0 || total == 0) {
                continue;
            }
            double w = width * n / total;
            svg.rect(x, 16, w, 24, "st-" + st.dbValue(), st.dbValue() + ": " + Svg.number(n));
            x += w;
        }
        if (total == 0) {
            svg.rect(Svg.LEFT, 16, width, 24, "st-none", "no recipients");
        }
        double lx = Svg.LEFT;
        for (RecipientStatus st : ORDER) {
            svg.rect(lx, 50, 10, 10, "st-" + st.dbValue(), null);
            String label = st.dbValue() + " " + Svg.number(r.counts().get(st));
            svg.text(lx + 14, 59, "start", "legend", label);
            lx += 22 + label.length() * 6.2;
        }
        // The bounce scale runs to twice the threshold, or further when the rate is beyond that.
        double top = Math.max(threshold * 2, rate * 1.1);
        double y = 92;
        svg.text(Svg.LEFT - 6, y + 14, "end", "tick", "bounces");
        svg.rect(Svg.LEFT, y, width, 20, "scale", null);
        svg.rect(Svg.LEFT, y, width * Math.min(rate / top, 1), 20, rate > threshold ? "bounce over" : "bounce",
                "hard-bounce rate " + Svg.percent(rate));
        double tx = Svg.LEFT + width * threshold / top;
        svg.line(tx, y - 6, tx, y + 26, "threshold");
        svg.text(tx, y + 40, "middle", "tick", "pause above " + Svg.percent(threshold));
        svg.text(Svg.LEFT, y + 40, "start", "tick", "hard-bounce rate " + Svg.percent(rate));
        StringBuilder table = new StringBuilder("<table><thead><tr><th>status</th><th>recipients</th><th>share</th></tr>"
                + "</thead><tbody>\n");
        for (RecipientStatus st : ORDER) {
            long n = r.counts().get(st);
            table.append("<tr><td>").append(st.dbValue()).append("</td><td>").append(Svg.number(n)).append("</td><td>")
                    .append(total == 0 ? "-" : Svg.percent((double) n / total)).append("</td></tr>\n");
        }
        table.append("<tr><td>hard-bounce rate</td><td>").append(Svg.number(r.bounceRate().hardBounces())).append(" of ")
                .append(Svg.number(r.bounceRate().sends())).append(" sends</td><td>").append(Svg.percent(rate))
                .append("</td></tr>\n<tr><td>pause threshold</td><td></td><td>").append(Svg.percent(threshold))
                .append("</td></tr>\n</tbody></table>");
        return RunCharts.figure("Outcomes and hard-bounce rate", "Recipients by status; below, the hard-bounce rate"
                + " against the rate above which the campaign pauses itself.", svg.end(), table.toString());
    }
}

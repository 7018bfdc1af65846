package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.store.TrackingEventTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A tracked campaign's opens and clicks, people and machines apart (docs/TRACKING.md, "Reports").
 * Unique counts are distinct recipients (0 when tracking.per-recipient is off).
 *
 * @param opens  human, machine (image proxies), unknown; scanners that fetched the image
 * @param clicks human, scanner, unknown
 * @param links  per rewritten link, in index order
 */
public record Engagement(TrackingMode mode, Figures opens, Figures clicks, List<LinkLine> links) {

    /** One kind's figures by class: total requests and distinct recipients. */
    public record Figures(long humanTotal, long humanUnique, long machineTotal, long scannerTotal, long unknownTotal) {

        static Figures of(List<TrackingEventTable.Count> counts, boolean click, int link) {
            long[] total = new long[TrackingClass.values().length];
            long humanUnique = 0;
            for (TrackingEventTable.Count c : counts) {
                if (c.click() == click && c.linkIndex() == link) {
                    total[c.trackingClass().ordinal()] += c.total();
                    if (c.trackingClass() == TrackingClass.HUMAN) {
                        humanUnique = c.unique();
                    }
                }
            }
            return new Figures(total[TrackingClass.HUMAN.ordinal()], humanUnique, total[TrackingClass.MACHINE_OPEN.ordinal()],
                    total[TrackingClass.SCANNER.ordinal()], total[TrackingClass.UNKNOWN.ordinal()]);
        }

        public long total() {
            return humanTotal + machineTotal + scannerTotal + unknownTotal;
        }
    }

    /** One link: where it goes and its clicks. */
    public record LinkLine(int index, String url, Figures clicks) {}

    /**
     * The share of opens that machines made (image proxies and scanners); empty without opens.
     * Why it is shown: with Apple's proxy fetching every image, a high share says the open rate says little.
     */
    public Optional<Double> machineShareOfOpens() {
        long all = opens.total();
        return all == 0 ? Optional.empty() : Optional.of((double) (opens.machineTotal() + opens.scannerTotal()) / all);
    }

    /** The campaign's engagement; empty when it is not tracked. */
    static Optional<Engagement> read(Connection c, long campaignId) throws SQLException {
        TrackedLinkTable links = new TrackedLinkTable();
        Optional<TrackingMode> mode = links.mode(c, campaignId);
        if (mode.isEmpty()) {
            return Optional.empty();
        }
        List<TrackingEventTable.Count> counts = new TrackingEventTable().counts(c, campaignId);
        List<String> urls = links.links(c, campaignId);
        List<LinkLine> lines = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            lines.add(new LinkLine(i, urls.get(i), Figures.of(counts, true, i)));
        }
        return Optional.of(new Engagement(mode.get(), Figures.of(counts, false, -1), Figures.of(counts, true, -1), lines));
    }
}

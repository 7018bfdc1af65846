package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.campaign.store.recipient.RecipientVariants;
import dev.mailrun.campaign.store.recipient.RecipientVariants.VariantCount;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The measure of {@code --pick-by clicks}: per variant, the recipients with a human click (machine
 * opens and link scanners are not people, docs/TRACKING.md) per delivered message, with its 95 %
 * interval. The winner is the variant with the highest rate, ties broken by the higher lower bound;
 * with no human click at all, or a tie on both, nothing decides and the operator picks.
 */
final class ClickPick {

    static final String MEASURE = "recipients with a human click per delivered";

    /** A winner and why. */
    record Decision(int position, String why) {}

    private ClickPick() {
    }

    /** Each variant's measure, in position order, from its {@code counts} (as status reads them). */
    static List<Wilson> measures(Connection c, AbState state, List<VariantCount> counts) throws SQLException {
        Map<Integer, Long> clickers = new TrackingEventTable().humanClickersByVariant(c, state.campaignId());
        List<Wilson> out = new ArrayList<>();
        for (int i = 0; i < state.test().variants().size(); i++) {
            int position = i;
            long delivered = counts.stream().filter(n -> n.variant() == position).findFirst().map(VariantCount::delivered)
                    .orElse(0L);
            out.add(Wilson.of(Math.min(delivered, clickers.getOrDefault(i, 0L)), delivered));
        }
        return out;
    }

    /** The winner by human clicks; empty when nothing decides it. */
    static Optional<Decision> decide(Connection c, AbState state) throws SQLException {
        List<Wilson> m = measures(c, state, new RecipientVariants().counts(c, state.campaignId(), null));
        int best = 0;
        boolean tied = false;
        for (int i = 1; i < m.size(); i++) {
            int cmp = compare(m.get(i), m.get(best));
            if (cmp > 0) {
                best = i;
                tied = false;
            } else if (cmp == 0) {
                tied = true;
            }
        }
        if (m.get(best).successes() == 0 || tied) {
            return Optional.empty();
        }
        StringBuilder why = new StringBuilder("the highest rate of human clicks: ");
        for (int i = 0; i < m.size(); i++) {
            why.append(i == 0 ? "" : ", ").append(state.test().variant(i).name()).append(' ').append(m.get(i));
        }
        return Optional.of(new Decision(best, why.toString()));
    }

    private static int compare(Wilson a, Wilson b) {
        int byRate = Double.compare(a.rate(), b.rate());
        return byRate != 0 ? byRate : Double.compare(a.low(), b.low());
    }
}

package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.recipient.RecipientVariants;
import dev.mailrun.campaign.store.recipient.RecipientVariants.VariantCount;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What status shows of an A/B test: per variant, the figures of its test share — the recipients it
 * has, sent, delivered, bounces, complaints, unsubscribes and the measure it is picked by with its
 * 95 % interval, what the winner was picked by — and, for the winner once picked, the same figures of
 * the rest apart (they were sent the winner because of the test share's figures, so they are not
 * part of them); the winner and why; while waiting, until when.
 *
 * <p>The measure of {@code --pick-by clicks} is the one the winner is picked by ({@link ClickPick});
 * that of {@code --pick-by manual} is what the operator weighs: unsubscribes and complaints per
 * delivered message (lower is better). That of {@code --pick-by replies} is the recipients who
 * replied per delivered message ({@link ReplyPick}).
 *
 * @param waiting the reason runs end with while the campaign waits for the decision; empty otherwise
 */
public record AbReport(AbState state, List<Line> variants, String measure, Optional<String> waiting) {

    /** What a group of recipients did, and the measure over them. */
    public record Figures(long recipients, long sent, long delivered, long bounces, long complaints, long unsubscribes,
                          Wilson measure) {}

    /**
     * One variant's figures.
     *
     * @param test its test share's
     * @param rest the rest's, sent it as the winner; empty for the others and before the pick
     */
    public record Line(String name, boolean winner, Figures test, Optional<Figures> rest) {}

    /** The name of the manual measure, as status prints it. */
    public static final String NEGATIVE = "unsubscribes and complaints per delivered";

    /** The campaign's test as status shows it at {@code now}; empty when it has none. */
    public static Optional<AbReport> read(Connection c, long campaignId, Instant now) throws SQLException {
        Optional<AbState> found = new AbTable().find(c, campaignId, false);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        AbState state = found.get();
        List<VariantCount> counts = new RecipientVariants().counts(c, campaignId, state.winner().orElse(null));
        PickBy by = state.test().pickBy();
        List<Wilson> measured = switch (by) {
            case CLICKS -> ClickPick.measures(c, state, counts);
            case REPLIES -> ReplyPick.measures(c, state, counts);
            case MANUAL -> List.of();
        };
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < state.test().variants().size(); i++) {
            VariantCount n = countOf(counts, i, true);
            Figures test = figures(n, by == PickBy.MANUAL ? negative(n) : measured.get(i));
            Optional<Figures> rest = Optional.empty();
            if (state.winner().equals(Optional.of(i))) {
                VariantCount r = countOf(counts, i, false);
                rest = Optional.of(figures(r, switch (by) {
                    case CLICKS -> ClickPick.rest(c, state, r.delivered());
                    case REPLIES -> ReplyPick.rest(c, state, r.delivered());
                    case MANUAL -> negative(r);
                }));
            }
            lines.add(new Line(state.test().variant(i).name(), state.winner().equals(Optional.of(i)), test, rest));
        }
        Optional<String> waiting = state.testDoneAt().isPresent() && !state.decided()
                ? Optional.of(AbGate.waiting(state, now).reason()) : Optional.empty();
        String measure = switch (by) {
            case CLICKS -> ClickPick.MEASURE;
            case REPLIES -> ReplyPick.MEASURE;
            case MANUAL -> NEGATIVE;
        };
        return Optional.of(new AbReport(state, lines, measure, waiting));
    }

    private static Figures figures(VariantCount n, Wilson measure) {
        return new Figures(n.recipients(), n.sent(), n.delivered(), n.bounces(), n.complaints(), n.unsubscribes(), measure);
    }

    /** The manual measure: unsubscribes and complaints per delivered. */
    private static Wilson negative(VariantCount n) {
        return RatePick.of(n.complaints() + n.unsubscribes(), n.delivered());
    }

    private static VariantCount countOf(List<VariantCount> counts, int variant, boolean testShare) {
        return counts.stream().filter(n -> n.variant() == variant && n.testShare() == testShare).findFirst()
                .orElse(new VariantCount(variant, testShare, 0, 0, 0, 0, 0));
    }

    /** The test's settings in one phrase: {@code test share 20%, decide manual, pick by manual}. */
    public String settings() {
        return "test share " + state.test().testSharePercent() + "% (" + state.testSize().map(n -> n + " recipients")
                .orElse("not yet chosen") + "), decide " + state.test().decideAfter().map(d -> "after " + d.toString()
                .substring(2).toLowerCase(java.util.Locale.ROOT)).orElse("manual") + ", pick by " + state.test().pickBy().wireName();
    }

    /** {@code B (picked by the operator (campaign pick) at …)}, or {@code none yet}. */
    public String winner() {
        return state.winnerName().map(w -> w + " (" + state.winnerReason().orElse("") + state.decidedAt()
                .map(at -> " at " + at).orElse("") + ")").orElse("none yet");
    }
}

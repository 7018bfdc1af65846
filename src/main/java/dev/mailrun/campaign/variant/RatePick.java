package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.store.recipient.RecipientVariants.VariantCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code --pick-by clicks} and {@code --pick-by replies} share: per variant, the recipients
 * counted per delivered message with its 95 % interval; the winner is the variant with the highest
 * rate, ties broken by the higher lower bound; with nothing counted at all, or a tie on both,
 * nothing decides and the operator picks.
 */
final class RatePick {

    /** A winner and why. */
    record Decision(int position, String why) {}

    private RatePick() {
    }

    /**
     * Each variant's measure over its test share, in position order: {@code counted} (variant →
     * recipients of the test share) per delivered; the rest in {@code counts} are left out.
     */
    static List<Wilson> measures(AbState state, List<VariantCount> counts, Map<Integer, Long> counted) {
        List<Wilson> out = new ArrayList<>();
        for (int i = 0; i < state.test().variants().size(); i++) {
            int position = i;
            long delivered = counts.stream().filter(n -> n.testShare() && n.variant() == position).findFirst()
                    .map(VariantCount::delivered).orElse(0L);
            out.add(of(counted.getOrDefault(i, 0L), delivered));
        }
        return out;
    }

    /** {@code counted} recipients per {@code delivered}; never more than all of them. */
    static Wilson of(long counted, long delivered) {
        return Wilson.of(Math.min(delivered, counted), delivered);
    }

    /** The winner by {@code m}; empty when nothing decides it. {@code why} begins the reason. */
    static Optional<Decision> best(AbState state, List<Wilson> m, String why) {
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
        StringBuilder reason = new StringBuilder(why).append(": ");
        for (int i = 0; i < m.size(); i++) {
            reason.append(i == 0 ? "" : ", ").append(state.test().variant(i).name()).append(' ').append(m.get(i));
        }
        return Optional.of(new Decision(best, reason.toString()));
    }

    private static int compare(Wilson a, Wilson b) {
        int byRate = Double.compare(a.rate(), b.rate());
        return byRate != 0 ? byRate : Double.compare(a.low(), b.low());
    }
}

package dev.mailrun.campaign.feedback;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one webhook request did: events per effect, the campaigns it paused, and whether it was refused
 * as a replayed signature (then nothing changed).
 */
public record FeedbackSummary(Map<FeedbackApplier.Effect, Integer> counts, List<Long> pausedCampaigns, boolean replayed) {

    public FeedbackSummary {
        counts = counts.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(counts));
        pausedCampaigns = List.copyOf(pausedCampaigns);
    }

    static FeedbackSummary replay() {
        return new FeedbackSummary(Map.of(), List.of(), true);
    }

    int count(FeedbackApplier.Effect effect) {
        return counts.getOrDefault(effect, 0);
    }

    /** Whether anything changed beyond counting (something suppressed, failed or paused). */
    public boolean changedAnything() {
        return count(FeedbackApplier.Effect.HARD) + count(FeedbackApplier.Effect.SOFT) + count(FeedbackApplier.Effect.COMPLAINT)
                + count(FeedbackApplier.Effect.REFUSED) + count(FeedbackApplier.Effect.UNSUBSCRIBED) > 0 || !pausedCampaigns.isEmpty();
    }

    /** "hard=1 complaint=2 delivery=40", effects in declaration order, zeros left out. */
    public String describe() {
        String effects = new EnumMap<>(counts).entrySet().stream()
                .map(en -> en.getKey().name().toLowerCase(java.util.Locale.ROOT) + "=" + en.getValue())
                .collect(Collectors.joining(" "));
        return (effects.isEmpty() ? "no events" : effects) + (pausedCampaigns.isEmpty() ? "" : " paused=" + pausedCampaigns);
    }
}

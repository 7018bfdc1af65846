package dev.mailrun.campaign.model;

import java.time.Instant;
import java.util.Optional;

/**
 * A campaign's A/B test as stored, and how far it is.
 *
 * @param testSize   how many recipients were given a variant for the test; empty before the first run
 * @param testDoneAt when a run first found every test recipient done; empty while the test share sends
 * @param winner     the position of the variant the rest are sent; empty until it is picked
 * @param restGivenAt when every recipient without a variant was given the winner; empty until then
 */
public record AbState(long campaignId, AbTest test, Optional<Integer> testSize, Optional<Instant> assignedAt,
                      Optional<Instant> testDoneAt, Optional<Integer> winner, Optional<String> winnerReason,
                      Optional<Instant> decidedAt, Optional<Instant> restGivenAt) {

    /** When the winner falls due: the test share done plus --decide-after; empty with --decide manual or before. */
    public Optional<Instant> decisionDue() {
        return testDoneAt.flatMap(at -> test.decideAfter().map(at::plus));
    }

    public boolean decided() {
        return winner.isPresent();
    }

    /** The winner's name; empty until picked. */
    public Optional<String> winnerName() {
        return winner.map(w -> test.variant(w).name());
    }
}

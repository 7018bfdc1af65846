package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.smtp.Outgoing;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * The messages of an A/B campaign: one {@link MessageFactory} per variant, each with its template
 * compiled and its headers checked once per run, chosen by the variant stored with the recipient.
 * A recipient without one (imported after the pick) is sent the winner; before a pick a run claims
 * only recipients that have one.
 */
public final class VariantMessages implements Messages {

    private final List<MessageFactory> byPosition;
    private final Optional<Integer> winner;

    public VariantMessages(List<MessageFactory> byPosition, Optional<Integer> winner) {
        this.byPosition = List.copyOf(byPosition);
        this.winner = winner;
    }

    @Override
    public Outgoing outgoing(ClaimedRecipient r, LongConsumer beforeBuild) {
        Integer variant = r.variant() != null ? r.variant() : winner.orElseThrow(() -> new IllegalStateException(
                "recipient " + r.id() + " has no variant and no winner was picked: the claim should not have taken it"));
        return byPosition.get(variant).outgoing(r, beforeBuild);
    }
}

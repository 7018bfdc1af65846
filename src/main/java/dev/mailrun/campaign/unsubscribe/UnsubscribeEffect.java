package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an unsubscribe request does, in the caller's transaction, however it came (the one-click link,
 * mail to the unsubscribe address, a provider's webhook event): a message of a campaign sent to lists
 * or segments leaves lists ({@link CampaignListsLeave}); any other puts the address on the suppression
 * list, as does one whose subscriber was deleted since. {@link Unsubscriber} runs it in a transaction
 * of its own; the providers' events ({@code campaign.feedback}) in theirs.
 */
public final class UnsubscribeEffect {

    private final SuppressionTable suppressions;
    private final EventOutbox events = new EventOutbox();
    private final CampaignListsLeave lists = new CampaignListsLeave();

    public UnsubscribeEffect(SuppressionTable suppressions) {
        this.suppressions = suppressions;
    }

    /**
     * Idempotent: a second request for the same address changes nothing and says so. The first writes
     * its {@code recipient.unsubscribed} event with the suppression, or with the lists left (the event's
     * {@code lists}).
     *
     * @param source the provider of a webhook event ({@link Unsubscriber.Method#PROVIDER}); empty otherwise
     */
    public Unsubscriber.Result apply(Connection c, UnsubscribeTarget target, Unsubscriber.Method method, Optional<String> source,
                                     Instant now) throws SQLException {
        if (!(EmailAddress.check(target.address()) instanceof EmailAddress.Valid valid)) {
            return Unsubscriber.Result.INVALID_ADDRESS;
        }
        String how = method.wireName() + source.map(s -> " " + s).orElse("");
        Optional<CampaignListsLeave.Left> left = lists.leave(c, target.campaignId(), valid.address().suppressionKey(), how, now);
        int changed;
        List<String> fields = new ArrayList<>(List.of("method", method.wireName()));
        source.ifPresent(s -> fields.addAll(List.of("source", s)));
        if (left.isPresent()) {
            changed = left.get().lists().size();
            fields.addAll(List.of("lists", String.join(",", left.get().lists())));
        } else {
            changed = suppressions.add(c, List.of(new SuppressionTable.Entry(valid.address().suppressionKey(), SuppressionReason.UNSUBSCRIBED,
                    "unsubscribe:" + source.map(s -> s + " ").orElse("") + "campaign=" + target.campaignId())), now);
        }
        if (changed == 0) {
            return Unsubscriber.Result.ALREADY_SUPPRESSED;
        }
        events.write(c, List.of(OutboxEvent.of(EventType.RECIPIENT_UNSUBSCRIBED, target.campaignId(), target.recipientId(),
                valid.address().value(), OutboxEvent.fields(fields.toArray(String[]::new)))), now);
        return Unsubscriber.Result.UNSUBSCRIBED;
    }
}

package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What an unsubscribe from a list campaign's message means (docs/AUDIENCE.md, "Unsubscribing"): the
 * person leaves the campaign's lists, and only those; each list left is a line of their history.
 */
final class CampaignListsLeave {

    /** What a request for a list campaign did: the names of the lists left (none: it was on none of them any more). */
    record Left(List<String> lists) {}

    private final CampaignListTable targets = new CampaignListTable();
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final SubscriberEventTable history = new SubscriberEventTable();

    /**
     * Unsubscribes the subscriber with this key from the campaign's lists, in the caller's transaction.
     * Empty when the campaign targets no list, or no subscriber has the address (deleted since it was
     * sent): the request then means what it means for a campaign of imported recipients.
     */
    Optional<Left> leave(Connection c, long campaignId, String key, String how, Instant now) throws SQLException {
        List<CampaignListTable.Target> lists = targets.of(c, campaignId);
        if (lists.isEmpty()) {
            return Optional.empty();
        }
        Optional<SubscriberTable.Stored> subscriber = subscribers.lock(c, key);
        if (subscriber.isEmpty()) {
            return Optional.empty();
        }
        Map<Long, String> names = lists.stream()
                .collect(Collectors.toMap(CampaignListTable.Target::listId, CampaignListTable.Target::name));
        long id = subscriber.get().id();
        List<Long> left = subscriptions.unsubscribe(c, id, names.keySet(), now);
        String detail = how + " from campaign " + campaignId;
        history.write(c, left.stream().map(list -> new SubscriberEventTable.NewEvent(id, SubscriberEventKind.UNSUBSCRIBED, list, detail))
                .toList(), now);
        return Optional.of(new Left(left.stream().map(names::get).toList()));
    }
}

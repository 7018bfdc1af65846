package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
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
 * What an unsubscribe from a list or segment campaign's message means (docs/AUDIENCE.md,
 * "Unsubscribing"): from a campaign sent to lists only, the person leaves those lists, and only those;
 * from one sent to a segment, which reached them through whatever lists they are on, they leave every
 * list. Each list left is a line of their history.
 */
final class CampaignListsLeave {

    /** What a request for a list campaign did: the names of the lists left (none: it was on none of them any more). */
    record Left(List<String> lists) {}

    private final CampaignListTable targets = new CampaignListTable();
    private final CampaignSegmentTable segmentTargets = new CampaignSegmentTable();
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final SubscriberEventTable history = new SubscriberEventTable();

    /**
     * Unsubscribes the subscriber with this key from the campaign's lists (from every list, for a
     * campaign sent to a segment), in the caller's transaction. Empty when the campaign targets no list
     * and no segment, or no subscriber has the address (deleted since it was sent): the request then
     * means what it means for a campaign of imported recipients.
     */
    Optional<Left> leave(Connection c, long campaignId, String key, String how, Instant now) throws SQLException {
        List<CampaignListTable.Target> lists = targets.of(c, campaignId);
        boolean segment = !segmentTargets.of(c, campaignId).isEmpty();
        if (lists.isEmpty() && !segment) {
            return Optional.empty();
        }
        Optional<SubscriberTable.Stored> subscriber = subscribers.lock(c, key);
        if (subscriber.isEmpty()) {
            return Optional.empty();
        }
        long id = subscriber.get().id();
        Map<Long, String> names = segment
                ? subscriptions.ofSubscriber(c, id).stream().collect(Collectors.toMap(SubscriptionTable.Stored::listId,
                        SubscriptionTable.Stored::listName))
                : lists.stream().collect(Collectors.toMap(CampaignListTable.Target::listId, CampaignListTable.Target::name));
        List<Long> left = subscriptions.unsubscribe(c, id, names.keySet(), now);
        String detail = how + " from campaign " + campaignId;
        history.write(c, left.stream().map(list -> new SubscriberEventTable.NewEvent(id, SubscriberEventKind.UNSUBSCRIBED, list, detail))
                .toList(), now);
        return Optional.of(new Left(left.stream().map(names::get).toList()));
    }
}

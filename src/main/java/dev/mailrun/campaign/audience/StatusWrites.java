package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.SubscriberEventTable.NewEvent;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * A subscriber's status changed in the caller's transaction, its row locked by the caller, with the
 * history events the change leaves (which the caller writes).
 *
 * <ul>
 *   <li>Blocklisting: the status, and every subscription the subscriber holds unsubscribed, each with its event.</li>
 *   <li>Taking off the blocklist: the status only. The subscriptions blocklisting unsubscribed stay
 *       unsubscribed (adding the subscriber to a list again leaves an existing subscription as it is), and
 *       the suppression list, a separate list, is untouched.</li>
 * </ul>
 */
final class StatusWrites {

    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();

    /** Blocklists an enabled subscriber; returns how many subscriptions it unsubscribed. */
    int blocklist(Connection c, long id, SubscriptionSource by, List<NewEvent> news, Instant now) throws SQLException {
        List<SubscriptionTable.Held> held = subscriptions.lockHeld(c, List.of(id));
        subscribers.setStatus(c, id, SubscriberStatus.BLOCKLISTED, now);
        subscriptions.unsubscribeEverywhere(c, List.of(id), now);
        for (SubscriptionTable.Held h : held) {
            news.add(new NewEvent(id, SubscriberEventKind.UNSUBSCRIBED, h.listId(), "blocklisted"));
        }
        news.add(new NewEvent(id, SubscriberEventKind.BLOCKLISTED, null, "by " + by.dbValue()));
        return held.size();
    }

    /** Takes a blocklisted subscriber off the blocklist. */
    void unblocklist(Connection c, long id, SubscriptionSource by, List<NewEvent> news, Instant now) throws SQLException {
        subscribers.setStatus(c, id, SubscriberStatus.ENABLED, now);
        news.add(new NewEvent(id, SubscriberEventKind.UNBLOCKLISTED, null, "by " + by.dbValue()
                + "; its subscriptions stay unsubscribed"));
    }
}

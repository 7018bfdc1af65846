package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Carries out a verified unsubscribe request, the one-click link's and the mailto address's alike: a
 * message of a campaign sent to lists unsubscribes from those lists ({@link CampaignListsLeave}); any
 * other puts the address on the suppression list, as does one whose subscriber was deleted since.
 */
public final class Unsubscriber {

    /**
     * What an unsubscribe request achieved. ALREADY_SUPPRESSED: nothing changed, the address being
     * suppressed already or, for a list campaign, off its lists already.
     */
    public enum Result { UNSUBSCRIBED, ALREADY_SUPPRESSED, INVALID_ADDRESS }

    /** How the request came: the List-Unsubscribe-Post one-click link, or a message to the mailto address. */
    public enum Method {
        ONE_CLICK("one-click"), MAILTO("mailto");

        private final String wireName;

        Method(String wireName) {
            this.wireName = wireName;
        }
    }

    private final DataSource dataSource;
    private final SuppressionTable suppressions;
    private final Clock clock;
    private final EventOutbox events = new EventOutbox();
    private final CampaignListsLeave lists = new CampaignListsLeave();

    public Unsubscriber(DataSource dataSource, SuppressionTable suppressions, Clock clock) {
        this.dataSource = dataSource;
        this.suppressions = suppressions;
        this.clock = clock;
    }

    /** A one-click request. */
    public Result unsubscribe(UnsubscribeTarget target) throws SQLException {
        return unsubscribe(target, Method.ONE_CLICK);
    }

    /**
     * Idempotent: a second request for the same address changes nothing and says so. The first
     * writes its {@code recipient.unsubscribed} event with the suppression, or with the lists left
     * (the event's {@code lists}), in one transaction.
     */
    public Result unsubscribe(UnsubscribeTarget target, Method method) throws SQLException {
        if (!(EmailAddress.check(target.address()) instanceof EmailAddress.Valid valid)) {
            return Result.INVALID_ADDRESS;
        }
        SuppressionTable.Entry entry = new SuppressionTable.Entry(valid.address().suppressionKey(),
                SuppressionReason.UNSUBSCRIBED, "unsubscribe:campaign=" + target.campaignId());
        int added = Transactions.inTransaction(dataSource, c -> {
            Optional<CampaignListsLeave.Left> left = lists.leave(c, target.campaignId(), entry.address(), method.wireName,
                    clock.instant());
            if (left.isPresent()) {
                if (!left.get().lists().isEmpty()) {
                    events.write(c, List.of(OutboxEvent.of(EventType.RECIPIENT_UNSUBSCRIBED, target.campaignId(),
                            target.recipientId(), valid.address().value(), OutboxEvent.fields("method", method.wireName,
                                    "lists", String.join(",", left.get().lists())))), clock.instant());
                }
                return left.get().lists().size();
            }
            int n = suppressions.add(c, List.of(entry), clock.instant());
            if (n > 0) {
                events.write(c, List.of(OutboxEvent.of(EventType.RECIPIENT_UNSUBSCRIBED, target.campaignId(),
                        target.recipientId(), valid.address().value(), OutboxEvent.fields("method", method.wireName))),
                        clock.instant());
            }
            return n;
        });
        return added > 0 ? Result.UNSUBSCRIBED : Result.ALREADY_SUPPRESSED;
    }
}

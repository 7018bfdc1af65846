package dev.mailrun.campaign;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * An operator's decisions to send recipients again: those whose delivery is unknown after a crash,
 * and those that failed for reasons that were not about their address (a bad setting, a relay
 * outage that outlasted the retries). A completed campaign is reopened; a paused one stays paused
 * until resumed; nothing is sent for a cancelled one.
 */
final class Requeues {

    /** Failed recipients read and decided per transaction: short locks on a large campaign. */
    private static final int PAGE = 1_000;

    /** Re-enables a campaign's sending task so the requeued recipients go out at the next slot. */
    @FunctionalInterface
    interface TaskWaker {
        void wake(long campaignId, Instant now) throws SQLException;
    }

    /** What requeue-failed did: recipients back in the queue, and failures left alone because the address is suppressed. */
    record FailedRequeued(int requeued, int suppressed) {}

    private record Page(int requeued, int suppressed, long lastId) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final TaskWaker waker;
    private final CampaignTable campaigns = new CampaignTable();
    private final SuppressionTable suppressions = new SuppressionTable();
    private final RecipientQueue recipients = new RecipientQueue();

    Requeues(DataSource dataSource, Clock clock, TaskWaker waker) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.waker = waker;
    }

    int unknown(Campaign campaign) throws SQLException {
        refuseCancelled(campaign);
        Instant now = clock.instant();
        int n = Transactions.inTransaction(dataSource, c -> {
            int requeued = recipients.requeueUnknown(c, campaign.id(), now);
            if (requeued > 0 && campaign.status() == CampaignStatus.COMPLETED) {
                campaigns.transition(c, campaign.id(), CampaignTransition.REOPEN, null, now);
            }
            return requeued;
        });
        wake(campaign, n, now);
        return n;
    }

    /**
     * Hands the failed recipients matching {@code filter} back to the queue with a fresh attempt
     * budget — never one whose address is suppressed (a hard bounce, a complaint, an unsubscribe):
     * the failure that suppressed it was about the address and sending again would only repeat it.
     */
    FailedRequeued failed(Campaign campaign, FailureFilter filter) throws SQLException {
        refuseCancelled(campaign);
        int requeued = 0;
        int suppressed = 0;
        long after = 0;
        while (true) {
            long from = after;
            Instant now = clock.instant();
            Page page = Transactions.inTransaction(dataSource, c -> {
                List<RecipientQueue.FailedRecipient> rows = recipients.failed(c, campaign.id(), filter, from, PAGE);
                if (rows.isEmpty()) {
                    return null;
                }
                Set<String> blocked = suppressions.suppressedAmong(c,
                        rows.stream().map(r -> key(r.email())).collect(Collectors.toSet()));
                List<Long> ids = new ArrayList<>(rows.size());
                for (RecipientQueue.FailedRecipient r : rows) {
                    if (!blocked.contains(key(r.email()))) {
                        ids.add(r.id());
                    }
                }
                return new Page(recipients.requeueFailed(c, campaign.id(), ids, now), rows.size() - ids.size(),
                        rows.get(rows.size() - 1).id());
            });
            if (page == null) {
                break;
            }
            requeued += page.requeued();
            suppressed += page.suppressed();
            after = page.lastId();
        }
        Instant now = clock.instant();
        if (requeued > 0 && campaign.status() == CampaignStatus.COMPLETED) {
            Transactions.inTransaction(dataSource, c -> campaigns.transition(c, campaign.id(), CampaignTransition.REOPEN, null, now));
        }
        wake(campaign, requeued, now);
        return new FailedRequeued(requeued, suppressed);
    }

    private void wake(Campaign campaign, int requeued, Instant now) throws SQLException {
        if (requeued > 0 && campaign.taskId().isPresent() && campaign.status() != CampaignStatus.PAUSED) {
            waker.wake(campaign.id(), now);
        }
    }

    private static void refuseCancelled(Campaign campaign) {
        if (campaign.status() == CampaignStatus.CANCELLED) {
            throw new CampaignException("campaign " + campaign.id() + " is cancelled; nothing is sent for it");
        }
    }

    private static String key(String email) {
        return EmailAddress.of(email).suppressionKey();
    }
}

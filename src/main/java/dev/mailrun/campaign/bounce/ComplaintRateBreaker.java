package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.ComplaintRate;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pauses a running campaign whose complaint rate exceeds {@code bounce.complaint-pause-rate} once it
 * has at least {@code bounce.min-sample} sends: mailbox providers start sending a stream to spam at
 * about 0.3 % of complaints, long before its bounce rate shows anything. The companion of
 * {@link BounceRateBreaker}; the pause goes through the same conditional transition (SELF_PAUSE), so
 * a campaign already paused, completed or cancelled is left as it is.
 *
 * <p>Complaints are the campaign's complaint bounce_events, from the bounce mailbox (ARF reports) and
 * from the providers' webhooks alike; sends are its recipients marked sent.
 */
public final class ComplaintRateBreaker {

    private static final Logger log = LoggerFactory.getLogger(ComplaintRateBreaker.class);

    private final DataSource dataSource;
    private final BounceSettings settings;
    private final Clock clock;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientCounts recipients = new RecipientCounts();

    public ComplaintRateBreaker(DataSource dataSource, BounceSettings settings, Clock clock) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.clock = clock;
    }

    ComplaintRate rate(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return recipients.complaintRate(c, campaignId);
        }
    }

    /** Pauses the campaign if its complaint rate is too high; returns the pause reason when it did. */
    public Optional<String> pauseIfTooHigh(long campaignId) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            ComplaintRate rate = recipients.complaintRate(c, campaignId);
            if (rate.sends() < settings.minSample() || rate.rate() <= settings.complaintPauseRate()) {
                return Optional.empty();
            }
            String reason = String.format(Locale.ROOT, "complaint rate %.2f%% (%d complaints over %d sends) exceeds %.2f%%",
                    rate.rate() * 100, rate.complaints(), rate.sends(), settings.complaintPauseRate() * 100);
            if (!campaigns.transition(c, campaignId, CampaignTransition.SELF_PAUSE, reason, clock.instant())) {
                return Optional.empty(); // not running (already paused, finished, cancelled)
            }
            log.warn("Campaign {} paused: {}", campaignId, reason);
            return Optional.of(reason);
        });
    }
}

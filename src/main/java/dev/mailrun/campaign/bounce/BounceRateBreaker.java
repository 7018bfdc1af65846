package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.CampaignTransition;
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
 * Pauses a running campaign whose hard-bounce rate exceeds {@code bounce.pause-rate} once it has at
 * least {@code bounce.min-sample} sends: relays shut a stream down above a bounce threshold, and a
 * paused campaign can be cleaned and resumed while a blocked relay cannot.
 *
 * <p>Sends are the campaign's recipients with a final outcome of trying (sent or failed). Hard
 * bounces are those failed with a 5xx reply — refused during the SMTP dialogue or bounced later
 * ({@link BounceApplier} marks those failed too) — plus any send with a hard bounce_event whose row
 * no longer says failed.
 */
public final class BounceRateBreaker {

    private static final Logger log = LoggerFactory.getLogger(BounceRateBreaker.class);

    private final DataSource dataSource;
    private final BounceSettings settings;
    private final Clock clock;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientCounts recipients = new RecipientCounts();

    public BounceRateBreaker(DataSource dataSource, BounceSettings settings, Clock clock) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.clock = clock;
    }

    BounceRate rate(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return recipients.hardBounceRate(c, campaignId);
        }
    }

    /** Pauses the campaign if its rate is too high; returns the pause reason when it did. */
    public Optional<String> pauseIfTooHigh(long campaignId) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            BounceRate rate = recipients.hardBounceRate(c, campaignId);
            if (rate.sends() < settings.minSample() || rate.rate() <= settings.pauseRate()) {
                return Optional.empty();
            }
            String reason = String.format(Locale.ROOT, "hard-bounce rate %.1f%% over %d sends exceeds %.1f%%",
                    rate.rate() * 100, rate.sends(), settings.pauseRate() * 100);
            if (!campaigns.transition(c, campaignId, CampaignTransition.SELF_PAUSE, reason, clock.instant())) {
                return Optional.empty(); // not running (already paused, finished, cancelled)
            }
            log.warn("Campaign {} paused: {}", campaignId, reason);
            return Optional.of(reason);
        });
    }
}

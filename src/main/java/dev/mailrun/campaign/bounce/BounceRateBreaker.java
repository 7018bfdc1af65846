package dev.mailrun.campaign.bounce;

import dev.mailrun.db.SqlTime;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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

    public BounceRateBreaker(DataSource dataSource, BounceSettings settings, Clock clock) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.clock = clock;
    }

    public BounceRate rate(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return rate(c, campaignId);
        }
    }

    /** Pauses the campaign if its rate is too high; returns the pause reason when it did. */
    public Optional<String> pauseIfTooHigh(long campaignId) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            BounceRate rate = rate(c, campaignId);
            if (rate.sends() < settings.minSample() || rate.rate() <= settings.pauseRate()) {
                return Optional.empty();
            }
            String reason = String.format(Locale.ROOT, "paused: hard-bounce rate %.1f%% over %d sends exceeds %.1f%%",
                    rate.rate() * 100, rate.sends(), settings.pauseRate() * 100);
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE campaign SET status = 'paused', pause_reason = ?, updated_at = ?
                    WHERE id = ? AND status = 'running'""")) {
                ps.setString(1, reason);
                SqlTime.set(ps, 2, clock.instant());
                ps.setLong(3, campaignId);
                if (ps.executeUpdate() == 0) {
                    return Optional.empty(); // not running (already paused, finished, cancelled)
                }
            }
            log.warn("campaign {} {}", campaignId, reason);
            return Optional.of(reason);
        });
    }

    private static BounceRate rate(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COALESCE(SUM(r.status IN ('sent', 'failed') OR e.recipient_id IS NOT NULL), 0),
                       COALESCE(SUM((r.status = 'failed' AND r.last_code BETWEEN 500 AND 599) OR e.recipient_id IS NOT NULL), 0)
                FROM recipient r
                LEFT JOIN bounce_event e ON e.recipient_id = r.id AND e.kind = 'hard'
                WHERE r.campaign_id = ?""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new BounceRate(campaignId, rs.getLong(2), rs.getLong(1));
            }
        }
    }
}

package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.store.CampaignTable;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A person's request, from the preference centre, to have their data erased (docs/ERASURE.md): a
 * message to the address with a signed link that expires, sent from the From address of the campaign
 * whose message carried the preference link. Only following that link erases ({@link Erasure}). At
 * most one message per address every {@link #INTERVAL}, kept in memory only: a page reloaded, or a
 * button pressed again, does not flood the mailbox.
 */
public final class ErasureRequests {

    /** The least time between two confirmations to one address. */
    public static final Duration INTERVAL = Duration.ofMinutes(10);
    /** Beyond this many addresses remembered, the oldest are forgotten. */
    private static final int REMEMBERED = 10_000;

    /** What a request did: sent, not sent again so soon, or not sent for want of a sender (the campaign is gone). */
    public enum Result { SENT, TOO_SOON, NO_SENDER }

    private final javax.sql.DataSource dataSource;
    private final ConfirmationMail mail;
    private final Clock clock;
    private final CampaignTable campaigns = new CampaignTable();
    private final Map<String, Instant> sent = new ConcurrentHashMap<>();

    public ErasureRequests(javax.sql.DataSource dataSource, ConfirmationMail mail, Clock clock) {
        this.dataSource = dataSource;
        this.mail = mail;
        this.clock = clock;
    }

    /**
     * Sends the confirmation, its subject and text as the page's language words them (the text holds the link).
     *
     * @param campaignId the campaign whose message carried the preference link: its From address sends it
     * @throws IOException when the relay did not take the message
     */
    public Result request(long campaignId, String to, String subject, String text) throws SQLException, IOException {
        Optional<String> key = Preferences.key(to);
        if (key.isEmpty()) {
            return Result.NO_SENDER;
        }
        Instant now = clock.instant();
        Instant last = sent.get(key.get());
        if (last != null && now.isBefore(last.plus(INTERVAL))) {
            return Result.TOO_SOON;
        }
        Optional<Campaign> campaign;
        try (Connection c = dataSource.getConnection()) {
            campaign = campaigns.find(c, campaignId);
        }
        if (campaign.isEmpty()) {
            return Result.NO_SENDER;
        }
        mail.send(new ConfirmationMail.Mail(campaign.get().fromAddress(), to, subject, text));
        if (sent.size() >= REMEMBERED) {
            sent.entrySet().removeIf(e -> !now.isBefore(e.getValue().plus(INTERVAL)));
        }
        sent.put(key.get(), now);
        return Result.SENT;
    }
}

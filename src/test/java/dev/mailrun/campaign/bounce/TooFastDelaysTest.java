package dev.mailrun.campaign.bounce;

import static org.assertj.core.api.Assertions.assertThat;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.MailedUnsubscribes;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.mail.bounce.BounceMailbox;
import dev.mailrun.mail.bounce.BounceParser;
import dev.mailrun.mail.bounce.MailboxSettings;
import dev.mailrun.mail.bounce.Samples;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;

/** A delayed DSN saying "too fast" read from a real mailbox halves the rate of the recipient's domain group, once. */
class TooFastDelaysTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private static final SigningKey KEY = SigningKey.of("0123456789abcdef0123456789abcdef-test");
    private final ReturnPaths returnPaths = new ReturnPaths(KEY);
    private final SettableClock clock = SettableClock.at("2025-03-10T12:00:00Z");
    private final Rows rows = new Rows(db.dataSource());

    @Test
    void a_too_fast_delay_halves_its_domain_groups_rate_and_a_mailbox_full_delay_does_not() throws Exception {
        rows.clear();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM adapted_rate")) {
            ps.executeUpdate();
        }
        GreenMailUser mailbox = greenMail.setUser("bounces@mail.example.com", "bounces", "pw");
        BounceSettings settings = BounceSettings.defaults();
        DomainGroups groups = new DomainGroups(List.of(new DomainGroup("gmail", List.of("gmail.com", "googlemail.com"), 8),
                new DomainGroup("example", List.of("example.net"), 4)));
        BounceProcessor processor = new BounceProcessor(
                new BounceMailbox(new MailboxSettings("127.0.0.1", greenMail.getImap().getPort(), false, "bounces", "pw",
                        "INBOX", Optional.empty())),
                new MailedUnsubscribes(new UnsubscribeTokens(KEY), new Unsubscriber(db.dataSource(), new SuppressionTable(), clock)),
                new BounceParser(),
                new BounceApplier(returnPaths, new SuppressionTable(), settings),
                new BounceRateBreaker(db.dataSource(), settings, clock),
                new ComplaintRateBreaker(db.dataSource(), settings, clock),
                db.dataSource(), clock, new TooFastDelays(groups, 20));
        long campaign = rows.campaign("running");
        long rated = rows.recipient(campaign, "reader@gmail.com", "sent", "<rate-1.campaign-12@mail.example.com>");
        long full = rows.recipient(campaign, "full.box@example.net", "sent", "<soft-1.campaign-12@mail.example.com>");
        mailbox.deliver(Samples.message("rfc3464-delayed-4.7.0-rate-limited.eml", Map.of("TOKEN_SOFT", returnPaths.token(campaign, rated))));
        mailbox.deliver(Samples.message("rfc3464-soft-4.2.2-delayed.eml", Map.of("TOKEN_SOFT", returnPaths.token(campaign, full))));

        BounceSummary summary = processor.process(100);

        assertThat(summary.soft()).isEqualTo(2);
        assertThat(adapted()).containsExactly(Map.entry("domain:gmail", 4.0));

        // Read again (a crash before it was marked processed): the same delay does not halve twice.
        clock.advance(Duration.ofSeconds(5));
        mailbox.deliver(Samples.message("rfc3464-delayed-4.7.0-rate-limited.eml", Map.of("TOKEN_SOFT", returnPaths.token(campaign, rated))));
        processor.process(100);
        assertThat(adapted()).containsExactly(Map.entry("domain:gmail", 4.0));
    }

    private static Map<String, Double> adapted() throws Exception {
        Map<String, Double> rates = new java.util.TreeMap<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT name, rate FROM adapted_rate");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rates.put(rs.getString(1), rs.getDouble(2));
            }
        }
        return rates;
    }
}

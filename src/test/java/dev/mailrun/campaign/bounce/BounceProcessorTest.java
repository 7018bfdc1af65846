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

class BounceProcessorTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private static final SigningKey KEY = SigningKey.of("0123456789abcdef0123456789abcdef-test");
    private final ReturnPaths returnPaths = new ReturnPaths(KEY);
    private final SettableClock clock = SettableClock.at("2025-03-10T12:00:00Z");
    private final Rows rows = new Rows(db.dataSource());
    private GreenMailUser mailbox;
    private BounceProcessor processor;
    private long campaign;

    @BeforeEach
    void setUp() throws Exception {
        rows.clear();
        mailbox = greenMail.setUser("bounces@mail.example.com", "bounces", "pw");
        BounceSettings settings = BounceSettings.defaults();
        processor = new BounceProcessor(
                new BounceMailbox(new MailboxSettings("127.0.0.1", greenMail.getImap().getPort(), false, "bounces", "pw",
                        "INBOX", Optional.empty())),
                new MailedUnsubscribes(new UnsubscribeTokens(KEY), new Unsubscriber(db.dataSource(), new SuppressionTable(), clock)),
                new BounceParser(),
                new BounceApplier(returnPaths, new SuppressionTable(), settings),
                new BounceRateBreaker(db.dataSource(), settings, clock),
                new ComplaintRateBreaker(db.dataSource(), settings, clock),
                db.dataSource(), clock);
        campaign = rows.campaign("running");
    }

    @Test
    void every_sample_lands_on_its_send_and_a_second_run_processes_nothing() throws Exception {
        long hard = rows.recipient(campaign, "nobody.here@example.org", "sent", "<hard-1.campaign-12@mail.example.com>");
        long soft = rows.recipient(campaign, "full.box@example.net", "sent", "<soft-1.campaign-12@mail.example.com>");
        long multi = rows.recipient(campaign, "gone@example.de", "sent", "multi-1.campaign-12@mail.example.com");
        long notice = rows.recipient(campaign, "old.user@example.info", "sent", "<notice-1.campaign-12@mail.example.com>");
        long ndr = rows.recipient(campaign, "Bob.Smith@contoso.example", "sent", "<other-id@mail.example.com>");
        long text = rows.recipient(campaign, "jane@example.co.uk", "retry", null);
        long complaint = rows.recipient(campaign, "annoyed@isp.example", "sent", null);
        deliver("rfc3464-hard-5.1.1.eml", Map.of("TOKEN_HARD", returnPaths.token(campaign, hard)));
        deliver("rfc3464-soft-4.2.2-delayed.eml", Map.of("TOKEN_SOFT", returnPaths.token(campaign, soft)));
        deliver("rfc3464-multi-recipient.eml", Map.of());
        deliver("text-failure-notice.eml", Map.of());
        deliver("text-delivery-has-failed.eml", Map.of("TOKEN_NDR", returnPaths.token(campaign, ndr)));
        deliver("text-mail-delivery-failed.eml", Map.of("TOKEN_TEXT", returnPaths.token(campaign, text)));
        deliver("arf-complaint.eml", Map.of("TOKEN_COMPLAINT", returnPaths.token(campaign, complaint)));
        deliver("auto-reply-not-a-bounce.eml", Map.of());

        BounceSummary first = processor.process(100);
        BounceSummary second = processor.process(100);

        assertThat(first).isEqualTo(new BounceSummary(8, 5, 1, 1, 0, 1, 1, 0, 0, 0, List.of()));
        assertThat(second.messagesRead()).isZero();
        for (long id : List.of(hard, multi, notice, ndr, text)) {
            assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", id)).as("recipient %d", id).isEqualTo("failed");
        }
        assertThat(rows.string("SELECT CONCAT(last_code, ' ', last_error) FROM recipient WHERE id = ?", hard))
                .startsWith("550 bounce 5.1.1 550 5.1.1 <nobody.here@example.org>: Recipient address rejected");
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", soft)).isEqualTo("sent");
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", complaint)).isEqualTo("sent");
        assertThat(suppressions()).containsExactlyInAnyOrder(
                "nobody.here@example.org hard_bounce", "gone@example.de hard_bounce", "old.user@example.info hard_bounce",
                "bob.smith@contoso.example hard_bounce", "jane@example.co.uk hard_bounce", "annoyed@isp.example complaint");
        assertThat(rows.count("SELECT bounces FROM soft_bounce WHERE address = 'full.box@example.net'")).isEqualTo(1);
    }

    @Test
    void a_bounce_read_again_after_a_crash_before_flagging_changes_nothing_more() throws Exception {
        long hard = rows.recipient(campaign, "nobody.here@example.org", "sent", "<hard-1.campaign-12@mail.example.com>");
        long soft = rows.recipient(campaign, "full.box@example.net", "sent", "<soft-1.campaign-12@mail.example.com>");
        deliver("rfc3464-hard-5.1.1.eml", Map.of("TOKEN_HARD", returnPaths.token(campaign, hard)));
        deliver("rfc3464-soft-4.2.2-delayed.eml", Map.of("TOKEN_SOFT", returnPaths.token(campaign, soft)));
        processor.process(100);
        // The same messages arrive again unflagged, as after a crash between commit and flag.
        deliver("rfc3464-hard-5.1.1.eml", Map.of("TOKEN_HARD", returnPaths.token(campaign, hard)));
        deliver("rfc3464-soft-4.2.2-delayed.eml", Map.of("TOKEN_SOFT", returnPaths.token(campaign, soft)));

        BounceSummary again = processor.process(100);

        assertThat(again).isEqualTo(new BounceSummary(2, 0, 0, 0, 0, 0, 0, 2, 0, 0, List.of()));
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isEqualTo(1);
        assertThat(rows.count("SELECT bounces FROM soft_bounce WHERE address = 'full.box@example.net'")).isEqualTo(1);
    }

    @Test
    void a_bounce_with_a_forged_token_and_an_unknown_message_id_suppresses_nobody() throws Exception {
        rows.recipient(campaign, "nobody.here@example.org", "sent", "<a-different-id@mail.example.com>");
        deliver("rfc3464-hard-5.1.1.eml", Map.of("TOKEN_HARD", "forgedtokenaaaaaaaaaaaaaaaaaaaa"));

        BounceSummary summary = processor.process(100);

        assertThat(summary.unmatched()).isEqualTo(1);
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isZero();
    }

    @Test
    void hard_bounces_above_the_pause_rate_pause_the_running_campaign() throws Exception {
        for (int i = 0; i < 96; i++) {
            rows.recipient(campaign, "ok" + i + "@example.com", "sent", null);
        }
        for (int i = 0; i < 4; i++) {
            rows.recipient(campaign, "refused" + i + "@example.com", "failed", null, 550);
        }
        long hard = rows.recipient(campaign, "nobody.here@example.org", "sent", "<hard-1.campaign-12@mail.example.com>");
        long multi = rows.recipient(campaign, "gone@example.de", "sent", "<multi-1.campaign-12@mail.example.com>");
        deliver("rfc3464-hard-5.1.1.eml", Map.of("TOKEN_HARD", returnPaths.token(campaign, hard)));
        deliver("rfc3464-multi-recipient.eml", Map.of());

        BounceSummary summary = processor.process(100);

        assertThat(summary.pausedCampaigns()).containsExactly(campaign);
        assertThat(rows.string("SELECT CONCAT(status, ' / ', pause_reason) FROM campaign WHERE id = ?", campaign))
                .isEqualTo("paused / hard-bounce rate 5.9% over 102 sends exceeds 5.0%");
    }

    @Test
    void a_complaint_report_from_the_mailbox_pauses_a_campaign_whose_complaint_rate_is_too_high() throws Exception {
        for (int i = 0; i < 99; i++) {
            rows.recipient(campaign, "ok" + i + "@example.com", "sent", null);
        }
        long complaint = rows.recipient(campaign, "annoyed@isp.example", "sent", null);
        deliver("arf-complaint.eml", Map.of("TOKEN_COMPLAINT", returnPaths.token(campaign, complaint)));

        BounceSummary summary = processor.process(100);

        assertThat(summary.pausedCampaigns()).containsExactly(campaign);
        assertThat(rows.string("SELECT CONCAT(status, ' / ', pause_reason) FROM campaign WHERE id = ?", campaign))
                .isEqualTo("paused / complaint rate 1.00% (1 complaints over 100 sends) exceeds 0.30%");
    }

    private void deliver(String sample, Map<String, String> replacements) {
        mailbox.deliver(Samples.message(sample, replacements));
    }

    private List<String> suppressions() throws Exception {
        try (var c = db.dataSource().getConnection(); var s = c.createStatement();
             var rs = s.executeQuery("SELECT address, reason FROM suppression")) {
            List<String> result = new java.util.ArrayList<>();
            while (rs.next()) {
                result.add(rs.getString(1) + " " + rs.getString(2));
            }
            return result;
        }
    }
}

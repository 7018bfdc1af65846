package dev.mailrun.campaign.reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.CampaignSetup;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.store.ReplyTable;
import dev.mailrun.campaign.variant.AbReport;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.bounce.BounceMailbox;
import dev.mailrun.mail.bounce.MailboxSettings;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --pick-by replies} end to end: the test share goes out through the real sending path to
 * GreenMail; replies, automatic answers, a report and unrelated mail arrive over SMTP in the replies
 * mailbox; the replies task reads it over IMAP and counts people's replies per variant; when the
 * decision falls due the variant with the highest reply rate wins and the rest get it.
 */
class AbPickByRepliesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    /** The key SendingHarness signs Message-IDs with. */
    private static final Secret MESSAGE_ID_KEY = Secret.of("message-id-key-for-tests-0123456789");
    private static final String FROM = "news@sender.example";
    private static final AbTest BY_REPLIES = new AbTest(List.of(Variant.parse("A:subject=Spring sale"),
            Variant.parse("B:subject=Twenty off")), 50, Optional.of(Duration.ofHours(2)), PickBy.REPLIES);

    @Test
    void the_variant_people_replied_to_more_wins_and_automatic_answers_and_strangers_do_not_count() throws Exception {
        greenMail.setUser(FROM, "replies", "pw");
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-23T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("replies-relay", 0), "w1")) {
            Campaigns campaigns = counting(h, clock);
            long id = campaigns.create(campaign("Replies"), Optional.empty(), List.of(), Optional.empty(),
                    Optional.of(BY_REPLIES));
            CampaignFixtures.recipients(db.dataSource(), id, 40);
            campaigns.start(id);
            h.scheduler.tick();                                   // the test share: 10 each
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(10, 10);
            List<MimeMessage> a = delivered("Spring sale");
            List<MimeMessage> b = delivered("Twenty off");
            assertThat(a).hasSize(10);
            assertThat(b).hasSize(10);
            clock.advance(INTERVAL);
            h.scheduler.tick();                                   // the wait starts: the next run is at the decision

            // A: one person, and four automatic answers (which would make A win if they counted).
            reply(a.get(0), "Re: Spring sale", Map.of());
            reply(a.get(1), "Automatic reply: Spring sale", Map.of());
            reply(a.get(2), "Re: Spring sale", Map.of("Auto-Submitted", "auto-replied"));
            reply(a.get(3), "Out of Office: Spring sale", Map.of());
            reply(a.get(4), "Re: Spring sale", Map.of("X-Autoreply", "yes"));
            // B: three people (one twice, one answering through References only) and a delivery report.
            reply(b.get(0), "Re: Twenty off", Map.of());
            reply(b.get(0), "Re: Re: Twenty off", Map.of());
            referencesOnly(b.get(1));
            reply(b.get(2), "Re: Twenty off", Map.of());
            report(b.get(3));
            // Unrelated mail, and a reply naming a Message-ID of ours whose signature is forged.
            send(message("stranger@elsewhere.example", "Hello", Map.of()));
            String forged = b.get(4).getMessageID().replaceFirst("\\.[0-9a-f]{16}@", ".0123456789abcdef@");
            send(message("r99@list.example", "Re: Twenty off", Map.of("In-Reply-To", forged)));

            ReplyProcessor processor = new ReplyProcessor(new BounceMailbox(mailbox()), MessageIds.anyDomain(MESSAGE_ID_KEY),
                    db.dataSource(), clock);
            ReplySummary first = processor.process(100);
            assertThat(first).isEqualTo(new ReplySummary(12, 4, 1, 4, 1, 2));
            assertThat(processor.process(100).read()).isZero();
            assertThat(repliersByVariant(id)).containsExactlyInAnyOrderEntriesOf(Map.of(0, 1L, 1, 3L));
            assertInboxKeptUnreadAndMarked(12);

            try (Connection c = db.dataSource().getConnection()) {
                AbReport report = AbReport.read(c, id, clock.instant()).orElseThrow();
                assertThat(report.measure()).isEqualTo("recipients who replied per delivered");
                assertThat(report.variants().get(0).test().measure().toString()).startsWith("10.0% (95% ").endsWith(", 1 of 10)");
                assertThat(report.variants().get(1).test().measure().toString()).startsWith("30.0% (95% ").endsWith(", 3 of 10)");
            }

            clock.set(h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt());
            h.scheduler.tick();                                   // due: B wins by itself and the rest are sent
            for (int i = 0; i < 3 && campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                clock.advance(INTERVAL);
                h.scheduler.tick();
            }
            assertThat(campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            var state = campaigns.abTest(id).orElseThrow();
            assertThat(state.winnerName()).contains("B");
            assertThat(state.winnerReason().orElseThrow()).startsWith("the highest rate of replies: A 10.0%")
                    .contains("B 30.0%");
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(10, 30);
            try (Connection c = db.dataSource().getConnection()) {
                // What decided stays as it was; the rest, sent B, are apart (none of them replied).
                AbReport report = AbReport.read(c, id, clock.instant()).orElseThrow();
                assertThat(report.variants().get(1).test().measure().toString()).endsWith(", 3 of 10)");
                assertThat(report.variants().get(1).rest().orElseThrow().measure().toString()).endsWith(", 0 of 20)");
            }
        }
    }

    @Test
    void without_a_reply_the_campaign_waits_for_the_operator_saying_why() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-24T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("replies-relay-2", 0), "w1")) {
            Campaigns campaigns = counting(h, clock);
            long id = campaigns.create(campaign("Silent"), Optional.empty(), List.of(), Optional.empty(),
                    Optional.of(BY_REPLIES));
            CampaignFixtures.recipients(db.dataSource(), id, 20);
            campaigns.start(id);
            h.scheduler.tick();
            clock.advance(INTERVAL);
            h.scheduler.tick();
            Instant due = campaigns.abTest(id).orElseThrow().decisionDue().orElseThrow();
            clock.set(h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt());
            h.scheduler.tick();
            assertThat(campaigns.abTest(id).orElseThrow().decided()).isFalse();
            assertThat(h.tasks.recentRuns(SendTask.taskName(id), 1).get(0).summary().orElseThrow().path("why").asText())
                    .isEqualTo("waiting for the A/B decision until `campaign pick " + id + " VARIANT` (due since " + due
                            + "; no variant leads by replies)");
        }
    }

    @Test
    void picking_by_replies_without_the_replies_mailbox_is_refused_at_create_with_one_line() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-25T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("replies-relay-3", 0), "w1")) {
            assertThatThrownBy(() -> h.campaigns.create(campaign("Uncounted"), Optional.empty(), List.of(), Optional.empty(),
                    Optional.of(BY_REPLIES)))
                    .isInstanceOf(InvalidFields.class)
                    .hasMessage("pickBy: replies needs the replies mailbox read: set replies.imap.host (docs/MAIL.md, "
                            + "\"Replies\"), or pick manually");
        }
    }

    private static Campaigns counting(SendingHarness h, SettableClock clock) {
        return new Campaigns(db.dataSource(), h.tasks, new TemplateLoader(Path.of("templates")), clock, INTERVAL,
                new CampaignSetup(List.of(), true, true));
    }

    private static NewCampaign campaign(String name) {
        return new NewCampaign(name, "welcome", FROM, Optional.of("News"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static MailboxSettings mailbox() {
        return new MailboxSettings("127.0.0.1", greenMail.getImap().getPort(), false, "replies", "pw", "INBOX",
                Optional.empty(), "replies");
    }

    /** The campaign's messages GreenMail received with {@code subject}, in the order they arrived. */
    private static List<MimeMessage> delivered(String subject) throws Exception {
        List<MimeMessage> out = new ArrayList<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            if (subject.equals(m.getSubject())) {
                out.add(m);
            }
        }
        return out;
    }

    private static void reply(MimeMessage original, String subject, Map<String, String> headers) throws Exception {
        MimeMessage m = message(original.getAllRecipients()[0].toString(), subject, headers);
        m.setHeader("In-Reply-To", original.getMessageID());
        m.setHeader("References", original.getMessageID());
        send(m);
    }

    private static void referencesOnly(MimeMessage original) throws Exception {
        send(message(original.getAllRecipients()[0].toString(), "Re: Twenty off",
                Map.of("References", "<thread-start@list.example> " + original.getMessageID() + " <cousin@list.example>")));
    }

    /** A delivery report that names the send: the bounce mailbox's, never a reply. */
    private static void report(MimeMessage original) throws Exception {
        MimeMessage m = message("MAILER-DAEMON@list.example", "Undelivered Mail Returned to Sender",
                Map.of("References", original.getMessageID()));
        send(m);
    }

    private static MimeMessage message(String from, String subject, Map<String, String> headers) throws Exception {
        MimeMessage m = new MimeMessage(session());
        m.setFrom(new InternetAddress(from));
        m.setRecipient(Message.RecipientType.TO, new InternetAddress(FROM));
        m.setSubject(subject);
        m.setSentDate(Date.from(Instant.parse("2026-11-23T10:30:00Z")));
        m.setText("Thanks!\n");
        for (Map.Entry<String, String> h : headers.entrySet()) {
            m.setHeader(h.getKey(), h.getValue());
        }
        return m;
    }

    private static void send(MimeMessage m) throws Exception {
        m.saveChanges();
        Transport.send(m);
    }

    private static Session session() {
        Properties p = new Properties();
        p.setProperty("mail.smtp.host", "127.0.0.1");
        p.setProperty("mail.smtp.port", Integer.toString(greenMail.getSmtp().getPort()));
        return Session.getInstance(p);
    }

    private static Map<Integer, Long> repliersByVariant(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            return new ReplyTable().repliersByVariant(c, id);
        }
    }

    /** Every message is still in the inbox, unread, and marked processed: people read the replies mailbox too. */
    private static void assertInboxKeptUnreadAndMarked(int expected) throws Exception {
        Session session = Session.getInstance(new Properties());
        try (Store store = session.getStore("imap")) {
            store.connect("127.0.0.1", greenMail.getImap().getPort(), "replies", "pw");
            Folder inbox = store.getFolder("INBOX");
            inbox.open(Folder.READ_ONLY);
            try {
                Message[] all = inbox.getMessages();
                assertThat(all).hasSize(expected);
                for (Message m : all) {
                    assertThat(m.isSet(Flags.Flag.SEEN)).as(m.getSubject()).isFalse();
                    assertThat(m.getFlags().contains(BounceMailbox.PROCESSED_KEYWORD)).as(m.getSubject()).isTrue();
                }
            } finally {
                inbox.close(false);
            }
        }
    }
}

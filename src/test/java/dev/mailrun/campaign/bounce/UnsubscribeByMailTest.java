package dev.mailrun.campaign.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
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
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * Unsubscribe requests sent to the List-Unsubscribe mailto arrive in the bounce mailbox (IMAP,
 * GreenMail) and are applied by the bounce task like the one-click POST.
 */
class UnsubscribeByMailTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private static final String SECRET = "0123456789abcdef0123456789abcdef-test";
    private static final SigningKey KEY = SigningKey.of(SECRET);

    private final UnsubscribeTokens tokens = new UnsubscribeTokens(KEY);
    private final SettableClock clock = SettableClock.at("2025-03-10T12:00:00Z");
    private final Rows rows = new Rows(db.dataSource());
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private GreenMailUser mailbox;
    private long campaign;

    @BeforeEach
    void setUp() throws Exception {
        rows.clear();
        mailbox = greenMail.setUser("unsubscribe@sender.example", "bounces", "pw");
        campaign = rows.campaign("running");
        logged.start();
        ((Logger) LoggerFactory.getLogger(MailedUnsubscribes.class)).addAppender(logged);
    }

    @AfterEach
    void detachLog() {
        ((Logger) LoggerFactory.getLogger(MailedUnsubscribes.class)).detachAppender(logged);
    }

    @Test
    void a_request_sent_by_mail_suppresses_the_address_as_the_one_click_post_does_and_is_marked_processed() throws Exception {
        long ann = rows.recipient(campaign, "Ann.Lee@list.example", "sent", null);
        mailbox.deliver(request("Ann.Lee@list.example", tokens.mailto("unsubscribe@sender.example", campaign, ann, "Ann.Lee@list.example")));

        BounceSummary first = processor(Optional.empty()).process(100);
        BounceSummary second = processor(Optional.empty()).process(100);

        assertThat(first).isEqualTo(new BounceSummary(1, 0, 0, 0, 0, 0, 0, 0, 1, 0, List.of()));
        assertThat(second.messagesRead()).isZero();
        // The row the one-click POST writes: same key, reason and source.
        assertThat(rows.string("SELECT CONCAT(address, ' ', reason, ' ', source) FROM suppression"))
                .isEqualTo("ann.lee@list.example unsubscribed unsubscribe:campaign=" + campaign);
        assertThat(flags("INBOX")).singleElement().satisfies(f -> {
            assertThat(f.contains(BounceMailbox.PROCESSED_KEYWORD)).isTrue();
            assertThat(f.contains(Flags.Flag.SEEN)).isTrue();
        });
        // The send itself is unchanged: an unsubscribe is not a failed delivery.
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", ann)).isEqualTo("sent");
    }

    @Test
    void a_request_read_again_after_a_crash_before_marking_changes_nothing_more() throws Exception {
        long ann = rows.recipient(campaign, "ann@list.example", "sent", null);
        String mailto = tokens.mailto("unsubscribe@sender.example", campaign, ann, "ann@list.example");
        mailbox.deliver(request("ann@list.example", mailto));
        processor(Optional.empty()).process(100);
        String before = rows.string("SELECT CONCAT(reason, ' ', source, ' ', created_at) FROM suppression");
        clock.advance(Duration.ofHours(1));
        // The same request arrives again unmarked, as after a crash between commit and mark.
        mailbox.deliver(request("ann@list.example", mailto));

        BounceSummary again = processor(Optional.empty()).process(100);

        assertThat(again.unsubscribes()).isEqualTo(1);
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isEqualTo(1);
        assertThat(rows.string("SELECT CONCAT(reason, ' ', source, ' ', created_at) FROM suppression")).isEqualTo(before);
        assertThat(flags("INBOX")).hasSize(2).allSatisfy(f -> assertThat(f.contains(Flags.Flag.SEEN)).isTrue());
    }

    @Test
    void with_a_processed_folder_a_handled_request_is_moved_there_like_a_bounce() throws Exception {
        long ann = rows.recipient(campaign, "ann@list.example", "sent", null);
        mailbox.deliver(request("ann@list.example", tokens.mailto("unsubscribe@sender.example", campaign, ann, "ann@list.example")));

        BounceSummary summary = processor(Optional.of("Processed")).process(100);

        assertThat(summary.unsubscribes()).isEqualTo(1);
        assertThat(flags("INBOX")).isEmpty();
        assertThat(flags("Processed")).singleElement().satisfies(f -> assertThat(f.contains(Flags.Flag.SEEN)).isTrue());
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isEqualTo(1);
    }

    @Test
    void a_forged_or_malformed_token_changes_nothing_is_logged_in_one_line_and_is_left_unread_for_review() throws Exception {
        long ann = rows.recipient(campaign, "ann@list.example", "sent", null);
        String genuine = tokens.token(campaign, ann, "ann@list.example");
        String forged = new UnsubscribeTokens(SigningKey.of("another-secret-another-secret-another")).token(campaign, ann, "ann@list.example");
        String tampered = genuine.substring(0, 10) + (genuine.charAt(10) == 'A' ? 'B' : 'A') + genuine.substring(11);
        for (String subject : List.of("unsubscribe-" + forged, "unsubscribe-" + tampered, "unsubscribe-not\u00a0base64!",
                "unsubscribe-", "unsubscribe-" + new ReturnPaths(KEY).token(campaign, ann))) {
            // A folded Message-ID: its line break must not reach the log.
            mailbox.deliver(message("ann@list.example", "<f" + Math.abs(subject.hashCode()) + "@list.example>\r\n\tX-Injected: yes", subject));
        }

        BounceSummary summary = processor(Optional.empty()).process(100);

        assertThat(summary.invalidUnsubscribes()).isEqualTo(5);
        assertThat(summary.unsubscribes()).isZero();
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isZero();
        assertThat(flags("INBOX")).hasSize(5).allSatisfy(f -> {
            assertThat(f.contains(BounceMailbox.PROCESSED_KEYWORD)).isTrue();
            assertThat(f.contains(Flags.Flag.SEEN)).isFalse();
        });
        assertThat(logged.list).hasSize(5).allSatisfy(e -> {
            assertThat(e.getLevel()).hasToString("WARN");
            assertThat(e.getFormattedMessage()).startsWith("unsubscribe by mail: the token in message")
                    .doesNotContain("\n").doesNotContain("\r").doesNotContain(SECRET).doesNotContain(forged);
        });
    }

    @Test
    void a_message_that_is_no_request_is_left_to_the_bounce_parser() throws Exception {
        mailbox.deliver(message("someone@list.example", "<q1@list.example>", "Please unsubscribe me"));

        BounceSummary summary = processor(Optional.empty()).process(100);

        assertThat(summary.unsubscribes() + summary.invalidUnsubscribes()).isZero();
        assertThat(summary.unrecognised()).isEqualTo(1);
    }

    private BounceProcessor processor(Optional<String> processedFolder) {
        BounceSettings settings = BounceSettings.defaults();
        return new BounceProcessor(
                new BounceMailbox(new MailboxSettings("127.0.0.1", greenMail.getImap().getPort(), false, "bounces", "pw",
                        "INBOX", processedFolder)),
                new MailedUnsubscribes(tokens, new Unsubscriber(db.dataSource(), new SuppressionTable(), clock)),
                new BounceParser(),
                new BounceApplier(new ReturnPaths(KEY), new SuppressionTable(), settings),
                new BounceRateBreaker(db.dataSource(), settings, clock),
                new ComplaintRateBreaker(db.dataSource(), settings, clock),
                db.dataSource(), clock);
    }

    /** What a mail client sends for {@code mailto:ADDRESS?subject=SUBJECT}. */
    private static MimeMessage request(String from, String mailto) throws Exception {
        String subject = mailto.substring(mailto.indexOf("?subject=") + "?subject=".length());
        return message(from, "<req-" + Math.abs(mailto.hashCode()) + "@list.example>", subject);
    }

    private static MimeMessage message(String from, String messageId, String subject) throws Exception {
        MimeMessage m = new MimeMessage(Session.getInstance(new Properties()));
        m.setFrom(new InternetAddress(from));
        m.setRecipient(Message.RecipientType.TO, new InternetAddress("unsubscribe@sender.example"));
        m.setSubject(subject, "UTF-8");
        m.setText("This message was automatically generated by the mail client to unsubscribe.", "UTF-8");
        m.saveChanges();
        m.setHeader("Message-ID", messageId);
        return m;
    }

    private List<Flags> flags(String folderName) throws Exception {
        Properties p = new Properties();
        p.setProperty("mail.imap.peek", "true");
        try (Store store = Session.getInstance(p).getStore("imap")) {
            store.connect("127.0.0.1", greenMail.getImap().getPort(), "bounces", "pw");
            Folder folder = store.getFolder(folderName);
            if (!folder.exists()) {
                return List.of();
            }
            folder.open(Folder.READ_ONLY);
            List<Flags> result = new ArrayList<>();
            for (Message m : folder.getMessages()) {
                result.add(m.getFlags());
            }
            folder.close(false);
            return result;
        }
    }
}

package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.message.Mailbox;
import dev.mailrun.mail.message.MessageFields;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.BodyPart;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SmtpPoolGreenMailTest {

    @RegisterExtension
    static GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private SmtpSettings settings() {
        return TestMail.settings(greenMail.getSmtp().getPort());
    }

    private static final String LONG_LINE = "x".repeat(5000);

    /** A realistic message: non-ASCII subject and names, HTML with escaped values, a 5000-char line. */
    private record RichItem(long key) implements Outgoing {
        @Override
        public MimeMessage build(Session session) throws RejectedMessageException {
            MessageFields fields = new MessageFields(new Mailbox("news@example.com", "Ünïcode Néws"),
                    Optional.of(Mailbox.of("help@example.com")), new Mailbox("ann@example.org", "Ann Ó'Brien"),
                    TestMail.IDS.derive(12, 3456), "c12.lists.example.com", "Frühling", "https://example.com/u/t0k3n?s=abc",
                    "mailto:unsubscribe@example.com?subject=c12.r3456");
            RenderedContent content = new RenderedContent("Grüße, Ann — 春のお知らせ",
                    "Hello Tom & <Jerry>\n" + LONG_LINE + "\nUnsubscribe: https://example.com/u/t0k3n?s=abc\n",
                    "<p>Hello Tom &amp; &lt;Jerry&gt;</p>\n<p>" + LONG_LINE + "</p>\n");
            return TestMail.COMPOSER.compose(session, fields, content);
        }

        @Override
        public Optional<String> envelopeFrom() {
            return Optional.of("bounces+c12.r3456@example.com");
        }
    }

    @Test
    void a_sent_message_arrives_with_both_parts_encoded_headers_and_unsubscribe_headers() throws Exception {
        List<SendResult> results = TestMail.send(settings().withConnections(1), List.of(new RichItem(3456)));

        assertThat(results).singleElement().isEqualTo(new SendResult.Sent(3456, TestMail.IDS.derive(12, 3456), TestMail.NOW));
        MimeMessage received = greenMail.getReceivedMessages()[0];
        assertThat(received.getSubject()).isEqualTo("Grüße, Ann — 春のお知らせ");
        assertThat(received.getHeader("Subject")[0]).startsWith("=?UTF-8?");
        assertThat(received.getHeader("From")[0]).contains("=?UTF-8?").contains("<news@example.com>");
        assertThat(received.getHeader("To")[0]).contains("<ann@example.org>");
        assertThat(received.getHeader("Reply-To")[0]).isEqualTo("help@example.com");
        assertThat(received.getSentDate().toInstant()).isEqualTo(TestMail.NOW);
        assertThat(received.getMessageID()).isEqualTo(TestMail.IDS.derive(12, 3456)).endsWith("@example.com>")
                .startsWith("<c12.r3456.");
        assertThat(TestMail.IDS.parse(received.getMessageID())).contains(new dev.mailrun.mail.message.MessageIds.Ids(12, 3456));
        assertThat(MimeUtility.unfold(received.getHeader("List-Unsubscribe")[0]))
                .isEqualTo("<https://example.com/u/t0k3n?s=abc>, <mailto:unsubscribe@example.com?subject=c12.r3456>");
        assertThat(received.getHeader("List-Unsubscribe-Post")).containsExactly("List-Unsubscribe=One-Click");
        assertThat(received.getHeader("List-Id")[0]).endsWith("<c12.lists.example.com>").startsWith("=?UTF-8?Q?");
        assertThat(received.getHeader("Return-Path")[0]).contains("bounces+c12.r3456@example.com");

        assertThat(received.getContentType()).startsWith("multipart/alternative");
        MimeMultipart parts = (MimeMultipart) received.getContent();
        assertThat(parts.getCount()).isEqualTo(2);
        BodyPart text = parts.getBodyPart(0);
        BodyPart html = parts.getBodyPart(1);
        assertThat(text.getContentType()).startsWith("text/plain").containsIgnoringCase("charset=UTF-8");
        assertThat(html.getContentType()).startsWith("text/html").containsIgnoringCase("charset=UTF-8");
        assertThat(((String) text.getContent()).replace("\r\n", "\n")).startsWith("Hello Tom & <Jerry>\n").contains(LONG_LINE);
        assertThat((String) html.getContent()).startsWith("<p>Hello Tom &amp; &lt;Jerry&gt;</p>").contains(LONG_LINE);
        assertThat(text.getHeader("Content-Transfer-Encoding")).containsExactly("quoted-printable");

        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        received.writeTo(raw);
        String wire = raw.toString(StandardCharsets.US_ASCII);
        assertThat(wire.split("\r\n")).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(998));
        assertThat(wire.chars()).allMatch(c -> c < 0x80);
    }

    @Test
    void mostly_non_ascii_text_goes_out_as_base64_and_decodes_intact() throws Exception {
        String japanese = "春のお知らせ".repeat(1000);
        Outgoing item = new Outgoing() {
            @Override
            public long key() {
                return 1;
            }

            @Override
            public MimeMessage build(Session session) throws RejectedMessageException {
                return TestMail.COMPOSER.compose(session, TestMail.fields(1, "ann@example.org"),
                        new RenderedContent("件名", japanese, "<p>" + japanese + "</p>"));
            }

            @Override
            public Optional<String> envelopeFrom() {
                return Optional.empty();
            }
        };

        assertThat(TestMail.send(settings(), List.of(item))).singleElement().isInstanceOf(SendResult.Sent.class);
        MimeMultipart parts = (MimeMultipart) greenMail.getReceivedMessages()[0].getContent();
        assertThat(parts.getBodyPart(0).getHeader("Content-Transfer-Encoding")).containsExactly("base64");
        assertThat((String) parts.getBodyPart(0).getContent()).isEqualTo(japanese);
    }

    @Test
    void two_hundred_messages_over_four_connections_are_each_received_exactly_once() throws Exception {
        try (SmtpPool pool = new SmtpPool(settings().withConnections(4), SendRateLimiter.unlimited(), TestMail.CLOCK)) {
            List<SendResult> results = TestMail.send(pool, TestMail.items(200), TestMail.FAR, TestMail.NEVER);

            assertThat(results).hasSize(200).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(pool.connectionsOpened()).isEqualTo(4);
        }
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(200);
        Set<String> ids = Arrays.stream(received).map(m -> {
            try {
                return m.getMessageID();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).collect(Collectors.toSet());
        assertThat(ids).hasSize(200);
    }

    @Test
    void starttls_required_against_a_relay_without_starttls_is_fatal_and_nothing_arrives() {
        SmtpSettings settings = new SmtpSettings("127.0.0.1", greenMail.getSmtp().getPort(), TlsMode.STARTTLS_REQUIRED,
                Optional.empty(), Optional.empty(), settings().connectTimeout(), settings().readTimeout(),
                settings().writeTimeout(), "sender.example.com", 2, 0);

        List<SendResult> results = TestMail.send(settings, TestMail.items(10));

        assertThat(results).hasSize(10).anySatisfy(r -> assertThat(r).isInstanceOf(SendResult.Fatal.class))
                .allSatisfy(r -> assertThat(r).isInstanceOfAny(SendResult.Fatal.class, SendResult.NotAttempted.class));
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }
}

package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.SerialisedMessage;
import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.MailDateFormat;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bytes {@link CampaignComposer} writes are those the mail API writes for the same message
 * ({@link MimeReferenceComposer}), boundary aside, for headers and bodies of every kind.
 */
class CampaignComposerTest {

    private static final MessageIds IDS = new MessageIds("example.com", Secret.of("0123456789abcdef-key"));
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2030-01-02T03:04:05.678Z"), ZoneOffset.UTC);
    private static final MessageComposer COMPOSER = new MessageComposer(CLOCK);
    private static final MimeReferenceComposer REFERENCE = new MimeReferenceComposer(CLOCK);
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");
    private static final Pattern BOUNDARY = Pattern.compile("boundary=\"([^\"]+)\"");

    private static final String LONG_LINE = "x".repeat(1200);
    private static final List<String> SUBJECTS = List.of("Hello", "  Welcome to ACME, Ann!  ",
            "Grüße aus Köln, Jörg", "春のお知らせ", "=?UTF-8?Q?looks_encoded?=", "tab\there",
            "a very long subject ".repeat(12), "back\\ slash", "\"quoted\" <angle> & (parens)", "");
    private static final List<Mailbox> RECIPIENTS = List.of(Mailbox.of("ann@example.org"),
            new Mailbox("ann@example.org", "Ann O'Neil"), new Mailbox("bob@example.org", "Müller, Bob"),
            new Mailbox("c@example.org", "\"Quoted\" Name"), new Mailbox("d@example.org", "山田 太郎"),
            new Mailbox("e@example.org", "x".repeat(120)), new Mailbox("very.long.local.part." + "y".repeat(60) + "@example.org", "Long"));
    private static final List<String> BODIES = List.of("plain text\nsecond line\n", "crlf\r\nalready\r\n", "",
            "no final newline", "<p>a &amp; b</p>\n<a href=\"https://example.com/u?x=1&amp;y=2\">u</a>\n",
            LONG_LINE + "\n", "Grüße aus Köln — café\n", "春のお知らせ。ようこそ。\n", "bell \u0007 and nul \u0000\n",
            "trailing spaces   \nand tabs\t\t\n", "lone surrogate \ud800 here\n", "emoji 😀 and pairs\n",
            ".leading dot\n.\n..two\n", "DEL \u007f char\n", "equals = sign and =?Q?x?=\n", "a\rb\r\r\nc\n\r");

    static byte[] bytes(MimeMessage message) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.writeTo(out);
        return out.toByteArray();
    }

    /** The message as text with its boundary, the one value chosen per message, replaced by a fixed one. */
    static String normalised(byte[] message) {
        String text = new String(message, StandardCharsets.ISO_8859_1);
        Matcher m = BOUNDARY.matcher(text);
        assertThat(m.find()).as("a boundary in %s", text).isTrue();
        return text.replace(m.group(1), "BOUNDARY");
    }

    private static MessageFields fields(Mailbox to, Optional<Mailbox> replyTo, Optional<String> mailto, String listName) {
        return new MessageFields(new Mailbox("news@example.com", "ACME News"), replyTo, to, IDS.derive(12, 3456),
                "c12.lists.example.com", listName, "https://example.com/u/c12r3456?t=abc", mailto,
                Optional.of(new SendIds(12, 3456)));
    }

    private static void assertSameBytes(Session session, MessageFields fields, RenderedContent content) throws Exception {
        byte[] reference = bytes(REFERENCE.compose(session, fields, content));
        SerialisedMessage lean = COMPOSER.forCampaign(fields.from(), fields.replyTo(), fields.listId(), fields.listName())
                .compose(session, fields.recipient(), content);
        assertThat(normalised(bytes(lean))).isEqualTo(normalised(reference));
        assertThat(lean.getSize()).isEqualTo(bytes(lean).length);
    }

    static Stream<Arguments> contents() {
        List<Arguments> all = new ArrayList<>();
        for (int i = 0; i < BODIES.size(); i++) {
            all.add(Arguments.of(SUBJECTS.get(i % SUBJECTS.size()), RECIPIENTS.get(i % RECIPIENTS.size()),
                    BODIES.get(i), BODIES.get(BODIES.size() - 1 - i)));
        }
        for (int i = 0; i < SUBJECTS.size(); i++) {
            all.add(Arguments.of(SUBJECTS.get(i), RECIPIENTS.get(i % RECIPIENTS.size()), BODIES.get(0), BODIES.get(4)));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("contents")
    void writes_the_bytes_the_mail_api_writes_for_the_same_message(String subject, Mailbox to, String text, String html)
            throws Exception {
        RenderedContent content = new RenderedContent(subject, text, html);
        assertSameBytes(SESSION, fields(to, Optional.of(Mailbox.of("help@example.com")),
                Optional.of("mailto:unsubscribe@example.com?subject=c12.r3456"), "Spring news"), content);
        assertSameBytes(SESSION, fields(to, Optional.empty(), Optional.empty(), ""), content);
        assertSameBytes(SESSION, fields(to, Optional.of(new Mailbox("help@example.com", "Hélène at ACME")),
                Optional.empty(), "Frühling 🌱 " + "long ".repeat(20)), content);
    }

    @Test
    void writes_every_enabled_providers_metadata_as_the_mail_api_does() throws Exception {
        Session tagged = MessageComposer.newSession("sender.example.com");
        new MessageTags(EnumSet.allOf(Provider.class), Optional.of("mailrun-feedback")).store(tagged.getProperties());
        assertSameBytes(tagged, fields(Mailbox.of("ann@example.org"), Optional.empty(), Optional.empty(), "Spring"),
                new RenderedContent("Hi", "text\n", "<p>html</p>\n"));
    }

    @Test
    void random_bodies_of_ascii_controls_line_breaks_and_non_ascii_text_write_the_same_bytes() throws Exception {
        SplittableRandom random = new SplittableRandom(22);
        String[] alphabet = {"a", "Z", " ", "\t", "\r", "\n", "\r\n", ".", "=", "?", "<", "&", "é", "春", "\u0001",
                "😀", "\ud800", "x".repeat(400)};
        for (int round = 0; round < 400; round++) {
            String[] bodies = new String[2];
            for (int b = 0; b < 2; b++) {
                StringBuilder body = new StringBuilder();
                for (int i = random.nextInt(60); i > 0; i--) {
                    // Mostly ASCII, so 7bit, quoted-printable and base64 all come up.
                    String piece = alphabet[random.nextInt(random.nextInt(4) == 0 ? alphabet.length : 12)];
                    body.append(piece);
                }
                bodies[b] = body.toString();
            }
            assertSameBytes(SESSION, fields(Mailbox.of("ann@example.org"), Optional.empty(), Optional.empty(), "S"),
                    new RenderedContent("Round " + round, bodies[0], bodies[1]));
        }
    }

    @Test
    void answers_what_the_pool_asks_of_a_message() throws Exception {
        MessageFields fields = fields(new Mailbox("ann@example.org", "Ann"), Optional.empty(), Optional.empty(), "S");
        SerialisedMessage m = COMPOSER.forCampaign(fields.from(), fields.replyTo(), fields.listId(), fields.listName())
                .compose(SESSION, fields.recipient(), new RenderedContent("  Grüße  ", "t", "h"));

        assertThat(m.getFrom()).extracting(Object::toString).containsExactly("ACME News <news@example.com>");
        assertThat(m.getAllRecipients()).extracting(Object::toString).containsExactly("Ann <ann@example.org>");
        assertThat(m.getMessageID()).isEqualTo(IDS.derive(12, 3456));
        assertThat(m.getSubject()).isEqualTo("Grüße");
    }

    @Test
    void each_message_of_a_campaign_gets_its_own_boundary() throws Exception {
        MessageFields fields = fields(Mailbox.of("ann@example.org"), Optional.empty(), Optional.empty(), "S");
        CampaignComposer campaign = COMPOSER.forCampaign(fields.from(), fields.replyTo(), fields.listId(), fields.listName());
        RenderedContent content = new RenderedContent("Hi", "t", "h");
        Matcher first = BOUNDARY.matcher(new String(bytes(campaign.compose(SESSION, fields.recipient(), content)), StandardCharsets.US_ASCII));
        Matcher second = BOUNDARY.matcher(new String(bytes(campaign.compose(SESSION, fields.recipient(), content)), StandardCharsets.US_ASCII));
        assertThat(first.find()).isTrue();
        assertThat(second.find()).isTrue();
        assertThat(first.group(1)).isNotEqualTo(second.group(1));
    }

    @Test
    void a_bad_sender_rejects_every_message_and_a_bad_list_id_only_after_the_recipients_own_headers() {
        CampaignComposer badFrom = COMPOSER.forCampaign(new Mailbox("news@example.com\r\nBcc: v@x.test", ""),
                Optional.empty(), "c12.lists.example.com", "S");
        CampaignComposer badReplyTo = COMPOSER.forCampaign(Mailbox.of("news@example.com"),
                Optional.of(Mailbox.of("not an address")), "c12.lists.example.com", "S");
        CampaignComposer badListId = COMPOSER.forCampaign(Mailbox.of("news@example.com"), Optional.empty(), "no dots", "S");
        RecipientFields ok = fields(Mailbox.of("ann@example.org"), Optional.empty(), Optional.empty(), "S").recipient();
        RecipientFields badTo = fields(Mailbox.of("ann@example.org\nX: y"), Optional.empty(), Optional.empty(), "S").recipient();
        RenderedContent content = new RenderedContent("Hi", "t", "h");

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> badFrom.compose(SESSION, ok, content))
                    .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("From:");
        }
        assertThatThrownBy(() -> badReplyTo.compose(SESSION, ok, content))
                .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("Reply-To:");
        assertThatThrownBy(() -> badListId.compose(SESSION, ok, content))
                .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("List-Id:");
        assertThatThrownBy(() -> badListId.compose(SESSION, badTo, content))
                .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("To:");
        assertThatThrownBy(() -> badListId.compose(SESSION, ok, new RenderedContent("a\r\nBcc: x", "t", "h")))
                .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("Subject:");
    }

    @Test
    void the_date_follows_the_clock_from_one_second_to_the_next() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2030-01-02T03:04:05.900Z"));
        MessageFields fields = fields(Mailbox.of("ann@example.org"), Optional.empty(), Optional.empty(), "S");
        CampaignComposer campaign = new MessageComposer(clock)
                .forCampaign(fields.from(), fields.replyTo(), fields.listId(), fields.listName());
        RenderedContent content = new RenderedContent("Hi", "t", "h");

        String first = dateOf(campaign.compose(SESSION, fields.recipient(), content));
        String again = dateOf(campaign.compose(SESSION, fields.recipient(), content));
        clock.now = Instant.parse("2030-01-02T03:04:06.000Z");
        String second = dateOf(campaign.compose(SESSION, fields.recipient(), content));

        // In the JVM's time zone, as the mail API writes it.
        assertThat(first).isEqualTo(again).isEqualTo(new MailDateFormat().format(Date.from(Instant.parse("2030-01-02T03:04:05Z"))));
        assertThat(second).isEqualTo(new MailDateFormat().format(Date.from(Instant.parse("2030-01-02T03:04:06Z"))));
    }

    private static String dateOf(MimeMessage m) throws Exception {
        String text = new String(bytes(m), StandardCharsets.US_ASCII);
        return text.substring("Date: ".length(), text.indexOf("\r\n"));
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

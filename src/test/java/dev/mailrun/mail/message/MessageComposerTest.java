package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class MessageComposerTest {

    private static final MessageIds IDS = new MessageIds("example.com", Secret.of("0123456789abcdef-key"));
    private static final MessageComposer COMPOSER =
            new MessageComposer(Clock.fixed(Instant.parse("2030-01-02T03:04:05Z"), ZoneOffset.UTC));
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");
    private static final RenderedContent CONTENT = new RenderedContent("Hello", "text", "<p>html</p>");

    private static MessageFields fields() {
        return new MessageFields(new Mailbox("news@example.com", "ACME"), Optional.of(Mailbox.of("help@example.com")),
                new Mailbox("ann@example.org", "Ann"), IDS.derive(1, 2), "c1.lists.example.com", "Spring",
                "https://example.com/u/abc", "mailto:unsubscribe@example.com?subject=c1.r2");
    }

    private static MessageFields with(UnaryOperator<MessageFields> change) {
        return change.apply(fields());
    }

    static Stream<Arguments> injections() {
        String crlf = "x\r\nBcc: victim@example.net";
        return Stream.of(
                Arguments.of("From", with(f -> new MessageFields(new Mailbox("news@example.com\r\nBcc: v@x.test", ""), f.replyTo(), f.to(), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("From display name", with(f -> new MessageFields(new Mailbox("news@example.com", crlf), f.replyTo(), f.to(), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("Reply-To", with(f -> new MessageFields(f.from(), Optional.of(Mailbox.of("a@example.com\nX: y")), f.to(), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("To", with(f -> new MessageFields(f.from(), f.replyTo(), Mailbox.of("ann@example.org\r\nBcc: v@x.test"), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("To display name", with(f -> new MessageFields(f.from(), f.replyTo(), new Mailbox("ann@example.org", "Ann\rX"), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("Subject", fields(), new RenderedContent(crlf, "t", "h")),
                Arguments.of("Message-ID", with(f -> new MessageFields(f.from(), f.replyTo(), f.to(), "<a@b>\r\nX: y", f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("List-Id", with(f -> new MessageFields(f.from(), f.replyTo(), f.to(), f.messageId(), "c1.lists\n.example.com", f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("List-Id", with(f -> new MessageFields(f.from(), f.replyTo(), f.to(), f.messageId(), f.listId(), crlf, f.unsubscribeUrl(), f.unsubscribeMailto())), CONTENT),
                Arguments.of("List-Unsubscribe", with(f -> new MessageFields(f.from(), f.replyTo(), f.to(), f.messageId(), f.listId(), f.listName(), "https://example.com/u\r\nX: y", f.unsubscribeMailto())), CONTENT),
                Arguments.of("List-Unsubscribe", with(f -> new MessageFields(f.from(), f.replyTo(), f.to(), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), "mailto:u@example.com\u0000")), CONTENT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("injections")
    void a_line_break_or_control_character_in_any_header_input_rejects_the_message_naming_the_header(
            String header, MessageFields fields, RenderedContent content) {
        assertThatThrownBy(() -> COMPOSER.compose(SESSION, fields, content))
                .isInstanceOf(RejectedMessageException.class)
                .hasMessageStartingWith(header + ":");
    }

    @Test
    void seven_bit_text_gets_crlf_line_breaks_in_one_pass_and_anything_else_is_refused() {
        assertThat(sevenBit("a\nb\r\nc\rd")).isEqualTo("a\r\nb\r\nc\r\nd");
        assertThat(sevenBit("a\r\r\nb\n\r")).isEqualTo("a\r\n\r\nb\r\n\r\n");
        String alreadyCrlf = "line one\r\nline two\r\n";
        assertThat(sevenBit(alreadyCrlf)).isEqualTo(alreadyCrlf);
        assertThat(sevenBit("caf\u00e9\n")).isNull();
        assertThat(sevenBit("bell\u0007")).isNull();
        assertThat(sevenBit("x".repeat(998) + "\n" + "y".repeat(998))).isNotNull();
        assertThat(sevenBit("x".repeat(999))).isNull();
    }

    @Test
    void the_one_pass_normalisation_agrees_with_replacing_line_breaks_three_times_over() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        char[] alphabet = {'a', 'b', ' ', '\t', '\r', '\n', '.'};
        for (int round = 0; round < 5_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(40); i > 0; i--) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String body = text.toString();
            String expected = body.replace("\r\n", "\n").replace('\r', '\n').replace("\n", "\r\n");
            assertThat(sevenBit(body)).as("%s", body.replace("\r", "<CR>").replace("\n", "<LF>"))
                    .isEqualTo(expected);
        }
        assertThat(MessageComposer.sevenBitBytes("x".repeat(998) + "\r" + "y".repeat(998))).hasSize(998 * 2 + 2);
    }

    @Test
    void a_7bit_part_handed_over_as_bytes_writes_exactly_what_the_text_handler_wrote() throws Exception {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        char[] alphabet = {'a', 'Z', '<', '>', ' ', '\t', '\r', '\n', '.', '=', '"', ';'};
        for (int round = 0; round < 2_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(200); i > 0; i--) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String body = text.toString();
            String subtype = random.nextBoolean() ? "plain" : "html";

            jakarta.mail.internet.MimeBodyPart viaText = new jakarta.mail.internet.MimeBodyPart();
            viaText.setText(sevenBit(body), "UTF-8", subtype);
            viaText.setHeader("Content-Transfer-Encoding", "7bit");

            assertThat(written(MimeReferenceComposer.part(body, subtype))).as("round %d", round).isEqualTo(written(viaText));
        }
    }

    /** The 7bit conversion as text; null when the body cannot go out 7bit. */
    private static String sevenBit(String body) {
        byte[] bytes = MessageComposer.sevenBitBytes(body);
        return bytes == null ? null : new String(bytes, StandardCharsets.US_ASCII);
    }

    /** A part as it is written inside a message (its headers brought up to date by saveChanges). */
    private static byte[] written(jakarta.mail.internet.MimeBodyPart part) throws Exception {
        MimeMessage message = new MimeMessage(SESSION);
        jakarta.mail.internet.MimeMultipart alternative = new jakarta.mail.internet.MimeMultipart("alternative");
        alternative.addBodyPart(part);
        message.setContent(alternative);
        message.saveChanges();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        part.writeTo(out);
        return out.toByteArray();
    }

    @Test
    void unsubscribe_urls_that_would_break_the_header_list_are_rejected() {
        for (String url : new String[] {"http://example.com/u", "https://example.com/a>, <https://evil.test", "https://exa mple.com", "javascript:alert(1)"}) {
            MessageFields bad = with(f -> new MessageFields(f.from(), f.replyTo(), f.to(), f.messageId(), f.listId(), f.listName(), url, f.unsubscribeMailto()));
            assertThatThrownBy(() -> COMPOSER.compose(SESSION, bad, CONTENT)).as(url)
                    .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("List-Unsubscribe:");
        }
    }

    @Test
    void list_unsubscribe_carries_the_mailto_next_to_the_url_or_the_url_alone_when_there_is_none() throws Exception {
        MimeMessage both = COMPOSER.compose(SESSION, fields(), CONTENT);
        MimeMessage urlOnly = COMPOSER.compose(SESSION, with(f -> new MessageFields(f.from(), f.replyTo(), f.to(),
                f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), Optional.empty())), CONTENT);

        assertThat(MimeUtility.unfold(both.getHeader("List-Unsubscribe", null)))
                .isEqualTo("<https://example.com/u/abc>, <mailto:unsubscribe@example.com?subject=c1.r2>");
        assertThat(urlOnly.getHeader("List-Unsubscribe", null)).isEqualTo("<https://example.com/u/abc>");
        assertThat(urlOnly.getHeader("List-Unsubscribe-Post", null)).isEqualTo("List-Unsubscribe=One-Click");
    }

    @Test
    void an_address_with_a_display_name_part_in_the_address_field_is_rejected() {
        MessageFields bad = with(f -> new MessageFields(f.from(), f.replyTo(), Mailbox.of("Eve <eve@example.org>"), f.messageId(), f.listId(), f.listName(), f.unsubscribeUrl(), f.unsubscribeMailto()));

        assertThatThrownBy(() -> COMPOSER.compose(SESSION, bad, CONTENT)).hasMessageStartingWith("To:");
    }

    @Test
    void the_composed_message_keeps_its_message_id_and_date_through_save_changes() throws Exception {
        MimeMessage message = COMPOSER.compose(SESSION, fields(), CONTENT);
        message.saveChanges();

        assertThat(message.getMessageID()).isEqualTo(IDS.derive(1, 2));
        assertThat(message.getSentDate().toInstant()).isEqualTo(Instant.parse("2030-01-02T03:04:05Z"));
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        message.writeTo(raw);
        String wire = raw.toString(StandardCharsets.US_ASCII);
        assertThat(wire).contains("List-Id: \"Spring\" <c1.lists.example.com>")
                .contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
        assertThat(wire.indexOf("Content-Type: text/plain")).isLessThan(wire.indexOf("Content-Type: text/html"));
    }

    @Test
    void transfer_encoding_is_7bit_for_short_ascii_lines_quoted_printable_for_mostly_ascii_and_base64_otherwise() {
        assertThat(MessageComposer.transferEncoding("Hello Ann,\r\n\tsee you.\n.\n")).isEqualTo("7bit");
        assertThat(MessageComposer.transferEncoding("a".repeat(998) + "\n" + "b".repeat(998))).isEqualTo("7bit");
        assertThat(MessageComposer.transferEncoding("a".repeat(999))).isEqualTo("quoted-printable");
        assertThat(MessageComposer.transferEncoding("bell \u0007 here")).isEqualTo("quoted-printable");
        assertThat(MessageComposer.transferEncoding("Grüße aus Köln")).isEqualTo("quoted-printable");
        assertThat(MessageComposer.transferEncoding("春のお知らせ")).isEqualTo("base64");
    }
}

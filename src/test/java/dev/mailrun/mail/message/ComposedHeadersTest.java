package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the composed headers say once a mail client parses them (jakarta.mail as the client). */
class ComposedHeadersTest {

    private static final MessageIds IDS = new MessageIds("example.com", Secret.of("0123456789abcdef-key"));
    private static final MessageComposer COMPOSER =
            new MessageComposer(Clock.fixed(Instant.parse("2030-01-02T03:04:05Z"), ZoneOffset.UTC));
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");

    private static MessageFields fields(String fromName, String toName) {
        return fields(fromName, toName, "", "Spring");
    }

    private static MessageFields fields(String fromName, String toName, String replyToName, String listName) {
        return new MessageFields(new Mailbox("news@example.com", fromName), Optional.of(new Mailbox("help@example.com", replyToName)),
                new Mailbox("ann@example.org", toName), IDS.derive(1, 2), "c1.lists.example.com", listName,
                "https://example.com/u/abc", "mailto:unsubscribe@example.com?subject=c1.r2");
    }

    /** The message as a receiving client sees it: written out, then parsed back. */
    private static MimeMessage received(MessageFields fields, String subject) throws Exception {
        return parse(wire(fields, subject));
    }

    private static byte[] wire(MessageFields fields, String subject) throws Exception {
        MimeMessage message = COMPOSER.compose(SESSION, fields, new RenderedContent(subject, "text", "<p>html</p>"));
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        message.writeTo(raw);
        return raw.toByteArray();
    }

    private static MimeMessage parse(byte[] wire) throws Exception {
        return new MimeMessage(SESSION, new ByteArrayInputStream(wire));
    }

    /** The List-Id description as a client reads it: unfolded, the {@code <id>} cut off, unquoted or decoded. */
    private static String listName(MimeMessage received) throws Exception {
        String value = MimeUtility.unfold(received.getHeader("List-Id", null));
        String phrase = value.substring(0, value.lastIndexOf(" <"));
        if (phrase.startsWith("\"")) {
            return phrase.substring(1, phrase.length() - 1).replaceAll("\\\\(.)", "$1");
        }
        return MimeUtility.decodeText(phrase);
    }

    /** Every line of the message, in octets, without its CRLF. */
    private static List<Integer> lineLengths(byte[] wire) {
        List<Integer> lengths = new ArrayList<>();
        int start = 0;
        for (int i = 0; i + 1 < wire.length; i++) {
            if (wire[i] == '\r' && wire[i + 1] == '\n') {
                lengths.add(i - start);
                start = i + 2;
            }
        }
        lengths.add(wire.length - start);
        return lengths;
    }

    private static String personal(jakarta.mail.Address[] addresses) {
        return ((InternetAddress) addresses[0]).getPersonal();
    }

    @Test
    void a_tab_in_the_subject_and_display_names_is_sent_and_reads_back_as_written() throws Exception {
        MimeMessage received = received(fields("ACME\tNews", "Ann\tLee"), "Hello\tWorld");

        assertThat(received.getSubject()).isEqualTo("Hello\tWorld");
        assertThat(personal(received.getFrom())).isEqualTo("ACME\tNews");
        assertThat(personal(received.getRecipients(MimeMessage.RecipientType.TO))).isEqualTo("Ann\tLee");
    }

    @Test
    void a_c1_control_or_line_separator_is_still_refused_naming_the_header() {
        for (char c : new char[] {'\u0085', '\u2028', '\u2029', '\u007f', '\u000b'}) {
            assertThatThrownBy(() -> COMPOSER.compose(SESSION, fields("ACME", "Ann"), new RenderedContent("Hi" + c, "t", "h")))
                    .isInstanceOf(RejectedMessageException.class)
                    .hasMessage("Subject: contains " + (c == '\u2028' ? "the line separator U+2028"
                            : c == '\u2029' ? "the paragraph separator U+2029"
                            : "the control character " + String.format("U+%04X", (int) c) + (c == '\u0085' ? " (next line)" : ""))
                            + ", which is not allowed in a header");
            assertThatThrownBy(() -> COMPOSER.compose(SESSION, fields("ACME" + c, "Ann"), new RenderedContent("Hi", "t", "h")))
                    .hasMessageStartingWith("From display name: contains ");
        }
    }

    static Stream<String> encodedWordLookalikes() {
        return Stream.of("=?UTF-8?Q?Your_bank_account_is_locked?=", "=?utf-8?b?SGFjaw==?=", "Hi =?UTF-8?Q?Ann?= there",
                "price=?5", "=?ISO-8859-1?Q?caf=E9?= =?UTF-8?B?8J+YgA==?=");
    }

    @ParameterizedTest
    @MethodSource("encodedWordLookalikes")
    void a_value_shaped_like_an_encoded_word_reads_back_as_the_literal_text_in_every_header(String value) throws Exception {
        MimeMessage received = received(fields(value, value, value, value), value);

        assertThat(received.getSubject()).isEqualTo(value);
        assertThat(personal(received.getFrom())).isEqualTo(value);
        assertThat(personal(received.getRecipients(MimeMessage.RecipientType.TO))).isEqualTo(value);
        assertThat(personal(received.getReplyTo())).isEqualTo(value);
        assertThat(listName(received)).isEqualTo(value);
        assertThat(MimeUtility.decodeText(MimeUtility.unfold(received.getHeader("Subject", null)))).isEqualTo(value);
    }

    static Stream<String> longValues() {
        return Stream.of(
                "word ".repeat(2_000).strip(),
                "x".repeat(10_000),
                "Gr\u00fc\u00dfe aus K\u00f6ln ".repeat(700).strip(),
                "\u6625\u306e\u304a\u77e5\u3089\u305b\ud83d\ude00".repeat(1_500),
                "\u00e9".repeat(10_000),
                "a  b\t\tc \"quoted\" back\\slash, C:\\ dir ".repeat(300).strip(),
                "=?UTF-8?Q?x?=".repeat(800),
                "y".repeat(77) + " " + "z".repeat(79) + " " + "w".repeat(1_000));
    }

    @ParameterizedTest
    @MethodSource("longValues")
    void no_line_exceeds_998_octets_whatever_the_values_and_each_reads_back_exactly(String value) throws Exception {
        byte[] wire = wire(fields(value, value, value, value), value);

        assertThat(lineLengths(wire)).allSatisfy(length -> assertThat(length).isLessThanOrEqualTo(998));
        MimeMessage received = parse(wire);
        assertThat(received.getSubject()).isEqualTo(value);
        assertThat(personal(received.getFrom())).isEqualTo(value);
        assertThat(personal(received.getRecipients(MimeMessage.RecipientType.TO))).isEqualTo(value);
        assertThat(personal(received.getReplyTo())).isEqualTo(value);
        assertThat(listName(received)).isEqualTo(value);
    }

    @Test
    void the_longest_unsubscribe_uris_and_message_id_fit_their_lines_and_longer_ones_are_refused() throws Exception {
        String url = "https://example.com/u/" + "a".repeat(900 - 22);
        String mailto = "mailto:unsubscribe@example.com?subject=" + "b".repeat(900 - 39);
        String messageId = "<" + "c".repeat(900 - 14) + "@example.com>";
        MessageFields longest = new MessageFields(new Mailbox("news@example.com", "ACME"), Optional.empty(),
                Mailbox.of("ann@example.org"), messageId, "c1.lists.example.com", "Spring", url, mailto);

        byte[] wire = wire(longest, "Hello");

        assertThat(lineLengths(wire)).allSatisfy(length -> assertThat(length).isLessThanOrEqualTo(998));
        MimeMessage received = parse(wire);
        assertThat(MimeUtility.unfold(received.getHeader("List-Unsubscribe", null))).isEqualTo("<" + url + ">, <" + mailto + ">");
        assertThat(received.getMessageID()).isEqualTo(messageId);

        MessageFields longUrl = new MessageFields(longest.from(), longest.replyTo(), longest.to(), IDS.derive(1, 2),
                longest.listId(), longest.listName(), url + "a".repeat(10_000), mailto);
        assertThatThrownBy(() -> COMPOSER.compose(SESSION, longUrl, new RenderedContent("Hi", "t", "h")))
                .isInstanceOf(RejectedMessageException.class).hasMessage("List-Unsubscribe: URI longer than 900 characters");
        MessageFields longId = new MessageFields(longest.from(), longest.replyTo(), longest.to(),
                "<" + "c".repeat(10_000) + "@example.com>", longest.listId(), longest.listName(), url, mailto);
        assertThatThrownBy(() -> COMPOSER.compose(SESSION, longId, new RenderedContent("Hi", "t", "h")))
                .isInstanceOf(RejectedMessageException.class).hasMessage("Message-ID: longer than 900 characters");
    }

    @Test
    void an_address_longer_than_smtp_allows_is_refused_naming_the_header() {
        String local = "r".repeat(10_000);
        MessageFields longReplyTo = new MessageFields(new Mailbox("news@example.com", "ACME"),
                Optional.of(Mailbox.of(local + "@example.com")), Mailbox.of("ann@example.org"), IDS.derive(1, 2),
                "c1.lists.example.com", "Spring", "https://example.com/u/abc", "mailto:unsubscribe@example.com");

        assertThatThrownBy(() -> COMPOSER.compose(SESSION, longReplyTo, new RenderedContent("Hi", "t", "h")))
                .isInstanceOf(RejectedMessageException.class).hasMessage("Reply-To: address longer than 254 characters");
    }

    @Test
    void an_unsubscribe_uri_holding_an_encoded_word_opener_is_refused() {
        MessageFields fields = new MessageFields(new Mailbox("news@example.com", "ACME"), Optional.empty(),
                Mailbox.of("ann@example.org"), IDS.derive(1, 2), "c1.lists.example.com", "Spring",
                "https://example.com/u?t=?UTF-8?Q?x?=", "mailto:unsubscribe@example.com");

        assertThatThrownBy(() -> COMPOSER.compose(SESSION, fields, new RenderedContent("Hi", "t", "h")))
                .isInstanceOf(RejectedMessageException.class).hasMessageStartingWith("List-Unsubscribe:").hasMessageContaining("=?");
    }

    @Test
    void ordinary_ascii_values_go_out_as_written_and_non_ascii_ones_as_encoded_words_of_at_most_75_characters() throws Exception {
        String wire = new String(wire(fields("ACME News", "Ann Lee", "", "Spring"), "Autumn news: 20% off"), StandardCharsets.US_ASCII);
        assertThat(wire).contains("\r\nSubject: Autumn news: 20% off\r\n").contains("\r\nFrom: ACME News <news@example.com>\r\n");

        String greek = "\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 ".repeat(40).strip();
        String encoded = new String(wire(fields("ACME", "Ann"), greek), StandardCharsets.US_ASCII);
        List<String> words = java.util.regex.Pattern.compile("=\\?[^?]+\\?[BQ]\\?[^?]*\\?=").matcher(encoded).results()
                .map(java.util.regex.MatchResult::group).toList();
        assertThat(words).isNotEmpty().allSatisfy(word -> assertThat(word.length()).isLessThanOrEqualTo(75));
    }
}

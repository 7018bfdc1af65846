package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.SerialisedMessage;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The operator's headers: the rule, and where and how the composer writes them. */
class AddedHeadersTest {

    private static final MessageComposer COMPOSER = new MessageComposer(Clock.fixed(Instant.parse("2030-01-02T03:04:05Z"), ZoneOffset.UTC));
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");
    private static final RecipientFields ANN = new RecipientFields(Mailbox.of("ann@example.org"), "<c1.r2.x@example.com>",
            "https://example.com/u/t", Optional.empty(), Optional.empty());
    private static final RenderedContent CONTENT = new RenderedContent("Hi", "text", "<p>html</p>");

    private static CampaignComposer composer(List<Map.Entry<String, String>> headers) {
        return COMPOSER.forCampaign(Mailbox.of("news@example.com"), Optional.empty(), "c1.lists.example.com", "News", List.of(),
                headers);
    }

    private static String raw(SerialisedMessage m) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.writeTo(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void headers_follow_list_unsubscribe_post_once_each_as_given_and_a_non_ascii_value_as_encoded_words() throws Exception {
        String raw = raw(composer(List.of(Map.entry("X-Campaign-Tag", " spring-2026 "), Map.entry("Feedback-ID", "a1:news:mailrun"),
                Map.entry("X-Greeting", "Grüße"))).compose(SESSION, ANN, CONTENT));

        String headers = raw.substring(0, raw.indexOf("\r\n\r\n") + 2);
        assertThat(headers).contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nX-Campaign-Tag: spring-2026\r\n"
                + "Feedback-ID: a1:news:mailrun\r\nX-Greeting: =?UTF-8?");
        MimeMessage parsed = new MimeMessage(Session.getInstance(new Properties()),
                new ByteArrayInputStream(raw.getBytes(StandardCharsets.ISO_8859_1)));
        assertThat(parsed.getHeader("X-Campaign-Tag")).containsExactly("spring-2026");
        assertThat(MimeUtility.decodeText(parsed.getHeader("X-Greeting")[0])).isEqualTo("Grüße");
    }

    @Test
    void a_long_ascii_value_is_folded_at_white_space_and_a_long_word_stays_whole_within_the_line_limit() throws Exception {
        String words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen";
        String url = "<https://example.com/" + "p".repeat(200) + ">";
        String raw = raw(composer(List.of(Map.entry("X-Words", words), Map.entry("List-Help", url))).compose(SESSION, ANN, CONTENT));

        MimeMessage parsed = new MimeMessage(Session.getInstance(new Properties()),
                new ByteArrayInputStream(raw.getBytes(StandardCharsets.ISO_8859_1)));
        assertThat(parsed.getHeader("X-Words")[0]).contains("\r\n ");
        assertThat(MimeUtility.unfold(parsed.getHeader("X-Words")[0])).isEqualTo(words);
        assertThat(raw).contains("List-Help: " + url + "\r\n");
    }

    @Test
    void the_rule_names_the_first_header_it_refuses() {
        assertThat(AddedHeaders.problem(List.of(Map.entry("X-A", "1"), Map.entry("To", "x@example.org"))))
                .hasValue(new AddedHeaders.Refusal(Optional.of("To"), "mailrun writes this header itself; it cannot be added"));
        assertThat(AddedHeaders.problem(List.of(Map.entry("x-ses-message-tags", "a=b"))).map(AddedHeaders.Refusal::line))
                .hasValue("x-ses-message-tags: mailrun writes this header itself; it cannot be added");
        assertThat(AddedHeaders.problem(List.of(Map.entry("X-PM-Metadata-mailrun-campaign", "1"))).map(AddedHeaders.Refusal::line))
                .hasValue("X-PM-Metadata-mailrun-campaign: mailrun writes this header itself; it cannot be added");
        assertThat(AddedHeaders.problem(List.of(Map.entry("Resent-From", "a@b.example"))).orElseThrow().line()).startsWith("Resent-From: not allowed");
        assertThat(AddedHeaders.problem(List.of(Map.entry("ARC-Seal", "i=1"))).orElseThrow().line()).startsWith("ARC-Seal: not allowed");
        assertThat(AddedHeaders.problem(List.of(Map.entry("X-A", "a\u2028b"))).map(AddedHeaders.Refusal::line))
                .hasValue("X-A: contains the line separator U+2028, which is not allowed in a header");
        List<Map.Entry<String, String>> tooMany = new java.util.ArrayList<>();
        for (int i = 0; i <= AddedHeaders.MAX_HEADERS; i++) {
            tooMany.add(Map.entry("X-H" + i, "1"));
        }
        assertThat(AddedHeaders.problem(tooMany)).as("about them all, naming no header")
                .hasValue(new AddedHeaders.Refusal(Optional.empty(), "at most 20 headers, got 21"));
        assertThat(AddedHeaders.problem(List.of(Map.entry("X-PM-Tag", "spring"), Map.entry("List-Help", "<https://x.example>"),
                Map.entry("X-A", "tab\there")))).isEmpty();
    }

    @Test
    void headers_the_rule_refuses_reject_every_message_of_the_campaign_naming_the_header() {
        CampaignComposer bad = composer(List.of(Map.entry("X-Tag", "spring\r\nBcc: victim@example.org")));
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> bad.compose(SESSION, ANN, CONTENT)).isInstanceOf(RejectedMessageException.class)
                    .hasMessage("header X-Tag: contains the control character U+000D (carriage return), which is not allowed in a header");
        }
        assertThatThrownBy(() -> composer(List.of(Map.entry("Subject", "x"))).compose(SESSION, ANN, CONTENT))
                .isInstanceOf(RejectedMessageException.class).hasMessage("header Subject: mailrun writes this header itself; it cannot be added");
    }

    @Test
    void without_headers_the_message_is_byte_for_byte_the_one_written_before_they_existed() throws Exception {
        String without = raw(COMPOSER.forCampaign(Mailbox.of("news@example.com"), Optional.empty(), "c1.lists.example.com", "News")
                .compose(SESSION, ANN, CONTENT));
        String empty = raw(composer(List.of()).compose(SESSION, ANN, CONTENT));

        assertThat(empty.replaceAll("_Part_\\d+_\\d+\\.\\d+", "B")).isEqualTo(without.replaceAll("_Part_\\d+_\\d+\\.\\d+", "B"));
    }
}

package dev.mailrun.mail.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the composed headers say once a mail client parses them (jakarta.mail as the client). */
class ComposedHeadersTest {

    private static final MessageIds IDS = new MessageIds("example.com", Secret.of("0123456789abcdef-key"));
    private static final MessageComposer COMPOSER =
            new MessageComposer(Clock.fixed(Instant.parse("2030-01-02T03:04:05Z"), ZoneOffset.UTC));
    private static final Session SESSION = MessageComposer.newSession("sender.example.com");

    private static MessageFields fields(String fromName, String toName) {
        return new MessageFields(new Mailbox("news@example.com", fromName), Optional.of(Mailbox.of("help@example.com")),
                new Mailbox("ann@example.org", toName), IDS.derive(1, 2), "c1.lists.example.com", "Spring",
                "https://example.com/u/abc", "mailto:unsubscribe@example.com?subject=c1.r2");
    }

    /** The message as a receiving client sees it: written out, then parsed back. */
    private static MimeMessage received(MessageFields fields, String subject) throws Exception {
        MimeMessage message = COMPOSER.compose(SESSION, fields, new RenderedContent(subject, "text", "<p>html</p>"));
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        message.writeTo(raw);
        return new MimeMessage(SESSION, new ByteArrayInputStream(raw.toByteArray()));
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
}

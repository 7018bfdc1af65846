package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WireMessageTest {

    @RegisterExtension
    static GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    /** Lines starting with a dot (SMTP dot-stuffing), a lone-dot line, bare LFs, long and non-ASCII text. */
    private static final String TEXT = ".leading dot\n.\nmiddle\r\n..two dots\n" + "y".repeat(3000) + "\nÄpfel — 春\n";
    /** Printable ASCII in short lines: sent 7bit, as it is, with a lone dot, a dot-led line and bare LFs. */
    private static final String HTML = "<p>.dot</p>\n.\n..\n<p>" + "z".repeat(900) + "</p>\r\n<p>end</p>\n";

    private static MimeMessage built(Session session, long key) throws Exception {
        return TestMail.COMPOSER.compose(session, TestMail.fields(key, "ann@example.org"),
                new RenderedContent("Grüße " + key, TEXT, HTML));
    }

    private static byte[] bytes(MimeMessage message) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.writeTo(out);
        return out.toByteArray();
    }

    @Test
    void the_serialised_message_writes_exactly_the_bytes_of_the_built_one_and_keeps_its_headers() throws Exception {
        Session session = Session.getInstance(new Properties());
        MimeMessage built = built(session, 41);

        MimeMessage wire = WireMessage.of(session, built);

        assertThat(bytes(wire)).isEqualTo(bytes(built));
        // What the transport writes: the same bytes, whatever it asks to leave out.
        ByteArrayOutputStream transportView = new ByteArrayOutputStream();
        wire.writeTo(transportView, new String[] {"Bcc", "Content-Length"});
        assertThat(transportView.toByteArray()).isEqualTo(bytes(built));
        assertThat(wire.getSize()).isEqualTo(bytes(built).length);
        assertThat(wire.getFrom()).extracting(Object::toString).containsExactly(built.getFrom()[0].toString());
        assertThat(wire.getMessageID()).isEqualTo(TestMail.IDS.derive(7, 41));
        assertThat(wire.getAllRecipients()).extracting(Object::toString).containsExactly("ann@example.org");
        assertThat(wire.getSubject()).isEqualTo("Grüße 41");
    }

    @Test
    void a_message_composed_straight_to_its_bytes_is_sent_as_it_is() throws Exception {
        Session session = Session.getInstance(new Properties());
        byte[] raw = "Subject: x\r\n\r\nbody\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        dev.mailrun.mail.SerialisedMessage composed = new dev.mailrun.mail.SerialisedMessage(session,
                java.util.Arrays.copyOf(raw, raw.length + 8), raw.length, null, null, "<a@b>", "x");

        assertThat(WireMessage.of(session, composed)).isSameAs(composed);
        assertThat(bytes(composed)).isEqualTo(raw); // the buffer's spare room is not written
    }

    @Test
    void the_buffer_grows_past_its_initial_capacity_without_losing_bytes() {
        WireMessage.Bytes sink = new WireMessage.Bytes(4);
        for (int i = 0; i < 10; i++) {
            sink.write('a' + i);
        }
        byte[] chunk = "-0123456789".getBytes();
        sink.write(chunk, 1, 10);

        assertThat(new String(sink.buffer(), 0, sink.size())).isEqualTo("abcdefghij0123456789");
    }

    @Test
    void sent_over_smtp_dot_stuffing_and_line_endings_still_apply_and_the_content_arrives_intact() throws Exception {
        record Rich(long key) implements Outgoing {
            @Override
            public MimeMessage build(Session session) {
                try {
                    return built(session, key);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public Optional<String> envelopeFrom() {
                return Optional.empty();
            }
        }
        List<SendResult> results = TestMail.send(TestMail.settings(greenMail.getSmtp().getPort()).withConnections(1),
                List.of(new Rich(1), new Rich(2)));

        assertThat(results).allMatch(r -> r instanceof SendResult.Sent);
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(2);
        for (MimeMessage m : received) {
            MimeMultipart parts = (MimeMultipart) m.getContent();
            assertThat(((String) parts.getBodyPart(0).getContent()).replace("\r\n", "\n"))
                    .isEqualTo(TEXT.replace("\r\n", "\n"));
            assertThat(((String) parts.getBodyPart(1).getContent()).replace("\r\n", "\n"))
                    .isEqualTo(HTML.replace("\r\n", "\n"));
            assertThat(parts.getBodyPart(0).getHeader("Content-Transfer-Encoding")).containsExactly("quoted-printable");
            assertThat(parts.getBodyPart(1).getHeader("Content-Transfer-Encoding")).containsExactly("7bit");
        }
        assertThat(received).extracting(MimeMessage::getSubject).containsExactlyInAnyOrder("Grüße 1", "Grüße 2");
    }
}
